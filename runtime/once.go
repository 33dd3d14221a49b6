package runtime

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// sync.Once. A Do that finds f running blocks until it has returned; if f
// panics, the Once is done all the same (Go's semantics).
//
// What carries over between executions: the model starts, in each
// execution, from the real Once, which only pass-through code (init,
// TestMain, code outside gosct's control) ever completes. So a Once done
// before the tests stays done, and a Once first used by the test runs its
// function again in every execution, as it would in each run of a fresh
// test process. Once-per-process semantics would make the first execution
// differ from all the others, and a trace recorded in a later one would not
// replay in a new process. The price: f's side effects (assigning a
// package-level variable) are repeated, which is harmless for the usual
// lazy initialization but not for a function that must run only once per
// process.

type onceState struct {
	state   onceStep
	runner  *goroutine
	waiters gset
}

type onceStep uint8

const (
	onceNew onceStep = iota
	onceRunning
	onceDone
)

//go:norace
func (s *syncState) once(o *sync.Once) *onceState {
	st := s.onces.get(o)
	if st == nil {
		st = &onceState{}
		if realOnceDone(o) {
			st.state = onceDone
		}
		s.onces.put(o, st)
	}
	return st
}

// onceDoneOff is the offset of the real Once's done flag, found by
// reflection; -1 if the layout is not the expected one (then every Once
// starts new).
var onceDoneOff = func() int {
	f, ok := reflect.TypeOf(sync.Once{}).FieldByName("done")
	if !ok || f.Type.Size() != 4 || f.Offset%4 != 0 {
		return -1
	}
	return int(f.Offset)
}()

//go:norace
func realOnceDone(o *sync.Once) bool {
	if onceDoneOff < 0 {
		return false
	}
	return atomic.LoadUint32((*uint32)(fieldPtr(unsafe.Pointer(o), uintptr(onceDoneOff)))) != 0
}

// Do calls f if and only if Do is called for the first time on o: the
// rewriting of o.Do(f).
//
//go:norace
func Do(o *sync.Once, f func()) {
	e, me := enter()
	if e == nil || !e.yield(me, opOnce) {
		o.Do(f)
		return
	}
	e.mu.Lock()
	st := e.sync.once(o)
	for st.state == onceRunning {
		st.waiters.add(me)
		if !e.block(me, "sync.Once running f in "+gname(st.runner)) {
			o.Do(f)
			return
		}
		e.mu.Lock()
	}
	st.waiters.remove(me)
	if st.state == onceDone {
		e.acquire(ptrOf(o))
		e.mu.Unlock()
		return
	}
	st.state, st.runner = onceRunning, me
	e.mu.Unlock()
	defer func() {
		// f returned, panicked or called runtime.Goexit: done.
		e.mu.Lock()
		st.state, st.runner = onceDone, nil
		e.release(ptrOf(o))
		for _, w := range st.waiters {
			e.ready(w)
		}
		st.waiters = st.waiters[:0]
		e.mu.Unlock()
	}()
	f()
}

// OnceFunc is sync.OnceFunc with the Once in the model: the returned
// function calls f once (per execution; see Do), and if f panicked,
// panics with the same value on every call.
//
//go:norace
func OnceFunc(f func()) func() {
	d := &struct {
		once  sync.Once
		valid bool
		p     any
	}{}
	g := func() {
		d.valid = false
		defer func() {
			d.p = recover()
			if !d.valid {
				panic(d.p)
			}
		}()
		f() // kept, unlike in sync: the next execution calls it again
		d.valid = true
	}
	return func() {
		Do(&d.once, g)
		if !d.valid {
			panic(d.p)
		}
	}
}

// OnceValue is sync.OnceValue with the Once in the model; see OnceFunc.
//
//go:norace
func OnceValue[T any](f func() T) func() T {
	var r T
	g := OnceFunc(func() { r = f() })
	return func() T {
		g()
		return r
	}
}

// OnceValues is sync.OnceValues with the Once in the model; see OnceFunc.
//
//go:norace
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var r1 T1
	var r2 T2
	g := OnceFunc(func() { r1, r2 = f() })
	return func() (T1, T2) {
		g()
		return r1, r2
	}
}
