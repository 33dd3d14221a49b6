package runtime

import (
	"reflect"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// sync.Once. A Do that finds f running blocks until it has returned; if f
// panics, the Once is done all the same (Go's semantics).
//
// What carries over between executions: what carries over between two runs
// of a test in one process under go test -count=2. The model starts, in
// each execution, from the real Once: a Once done before the execution
// (in init, in TestMain, or by an earlier execution) is done. When f
// returns in an execution, the real Once is made done too, so f runs once
// per process, as Go runs it. (gosct used to run f again in every
// execution, as a fresh process would; a function that must run once per
// process, registering a name, failed from the second schedule on:
// github.com/golang/groupcache's tests, "duplicate registration of
// group". docs/limitations.md has the measurements behind the rule.)
//
// Replaying such an execution elsewhere: an execution that found a Once
// done by an earlier execution records the Do's position (inputs.onces,
// the trace's Inputs.Onces); a replay in a fresh process runs f there
// first, outside the schedule (no decisions, the hooks passing through),
// so that the recorded decisions follow. The in-process re-runs of an
// execution (the detailed re-run of a bug, the determinism check) treat
// the Onces it completed as new (inputs.fresh), so they run f again as it
// did.

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

// onceSet is a set of Onces, shared by an execution and its re-runs. It
// holds them by weak pointer: a set kept for the process must not keep
// every Once it saw alive, and a Once collected is not the Once that
// takes its address (weak pointers to the two differ).
type onceSet struct {
	mu sync.Mutex
	m  map[weak.Pointer[sync.Once]]bool
	// pruneAt is the size at which the entries of collected Onces are
	// dropped.
	pruneAt int
}

//go:norace
func (s *onceSet) add(o *sync.Once) {
	s.mu.Lock()
	if s.m == nil {
		s.m = map[weak.Pointer[sync.Once]]bool{}
	}
	if len(s.m) >= s.pruneAt {
		for k := range s.m {
			if k.Value() == nil {
				delete(s.m, k)
			}
		}
		s.pruneAt = max(2*len(s.m), 64)
	}
	s.m[weak.Make(o)] = true
	s.mu.Unlock()
}

//go:norace
func (s *onceSet) has(o *sync.Once) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m) > 0 && s.m[weak.Make(o)]
}

// ranOnces are the Onces whose function an execution of this process ran:
// done for every later execution.
var ranOnces onceSet

// once is o's state in the execution; created says it was created now.
//
//go:norace
func (m *models) once(o *sync.Once, fresh *onceSet) (st *onceState, created bool) {
	st = m.onces.get(o)
	if st == nil {
		st = &onceState{}
		if realOnceDone(o) && !fresh.has(o) {
			st.state = onceDone
		}
		m.onces.put(o, st)
		created = true
	}
	return st, created
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
	if e == nil || !e.yieldEv(me, opOnce, evRecord{obj: ptrOf(o)}) {
		o.Do(f)
		return
	}
	e.mu.Lock()
	st, created := e.models.once(o, e.in.fresh)
	if created {
		switch {
		case st.state == onceDone && ranOnces.has(o):
			// Done by an earlier execution: this one depends on it.
			e.models.carried = append(e.models.carried, doPos())
		case st.state == onceNew && e.in.takeCarried(doPos()):
			// The recorded execution found it done: run f first,
			// outside the schedule, as the recording process had.
			e.mu.Unlock()
			runOutside(e, func() { o.Do(f) })
			e.mu.Lock()
			st.state = onceDone
			e.models.carried = append(e.models.carried, doPos())
		}
	}
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
		e.edge(acquireEdge, ptrOf(o))
		e.mu.Unlock()
		return
	}
	st.state, st.runner = onceRunning, me
	me.holds = append(me.holds, unsafe.Pointer(o))
	e.mu.Unlock()
	defer func() {
		// f returned, panicked or called runtime.Goexit: done.
		e.mu.Lock()
		me.holds[len(me.holds)-1] = nil // the array would keep o alive
		me.holds = me.holds[:len(me.holds)-1]
		st.state, st.runner = onceDone, nil
		e.edge(releaseEdge, ptrOf(o))
		for _, w := range st.waiters {
			e.ready(w)
		}
		st.waiters = st.waiters[:0]
		// Done for the process, as in Go (see above). Recorded under
		// the lock: the weak pointers the sets allocate are the
		// runtime's, not the program's (memstats.go).
		ranOnces.add(o)
		if e.in.fresh != nil {
			e.in.fresh.add(o)
		}
		e.mu.Unlock()
		o.Do(func() {})
	}()
	f()
}

// OnceFunc is sync.OnceFunc with the Once in the model: the returned
// function calls f once (once per process, as Go's; see Do), and if f panicked,
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
		f()
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

// takeCarried reports whether the recorded execution found the Once of the
// Do at pos done by an earlier execution, and consumes that record.
//
//go:norace
func (in *inputs) takeCarried(pos string) bool {
	for i, p := range in.onces {
		if p == pos {
			in.onces = append(in.onces[:i:i], in.onces[i+1:]...)
			return true
		}
	}
	return false
}

// runOutside runs f with the execution out of the way: every hook passes
// through, no decision is taken. The caller holds the token, so no other
// goroutine of the execution runs meanwhile.
//
//go:norace
func runOutside(e *execution, f func()) {
	active.Store(nil)
	defer active.Store(e)
	f()
}

// doPos is the position of the call of Do (OnceFunc's own, for the
// Onces of OnceFunc and its kin: the same for all of them, told apart by
// their order, which a replay follows).
//
//go:norace
func doPos() string {
	if _, file, line, ok := goruntime.Caller(2); ok {
		return shortPos(file, line)
	}
	return "?"
}
