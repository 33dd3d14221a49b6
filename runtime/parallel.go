package runtime

import (
	"reflect"
	"sync"
	"testing"
	"unsafe"
)

// Parallel subtests. Under go test, a subtest that calls t.Parallel
// returns control to its parent at once (its t.Run returns true), waits
// until the parent's function has returned, then runs beside the parent's
// other parallel subtests; the parent ends (its cleanups run) after them
// all. Table-driven tests with t.Parallel share state between the rows
// more often than not, and Go's race detector sees the rows race: run one
// after the other, as they were when Parallel did nothing inside an
// execution, they never interleave, and gosct missed what go test -race
// finds.
//
// Inside an execution a subtest that called Parallel is a goroutine of
// the execution like any other (it joined through Run), so gosct does
// what testing does, on the model: the subtest releases its parent's t.Run
// through testing's own signal channel (the one testing's t.Parallel
// sends on), then waits on a controlled channel its parent closes when its
// function returns; the parent then waits, on a controlled WaitGroup, for
// its parallel subtests before its cleanups. Which subtest runs when is
// the strategy's decision, and the detector orders the subtests after
// their parent's function and before its end, as testing's channels
// order them for Go's. testing's own Parallel is not called: its
// -parallel semaphore and its barrier are real blocking the scheduler
// could not see. Where testing's fields are not what this expects (a
// future Go), Parallel does nothing inside an execution, as before.

// parGroup is one parent test's parallel subtests in an execution.
type parGroup struct {
	barrier chan struct{} // a controlled channel, closed when the parent's function returns
	running sync.WaitGroup
}

// Parallel replaces t.Parallel.
//
//go:norace
func Parallel(t *testing.T) {
	e, me := enter()
	if e == nil {
		t.Parallel()
		return
	}
	// The execution's own test goroutine runs alone under gosct (its
	// test is explored by itself): only a subtest started through Run
	// has a parent to leave.
	if me == nil || me.runT == nil || me.par != nil {
		return
	}
	sig := testSignal(t)
	if sig == nil {
		return
	}
	e.mu.Lock()
	g := e.subtests.parallel.get(me.runT)
	e.mu.Unlock()
	if g == nil {
		g = &parGroup{barrier: Chan(make(chan struct{}))}
		e.mu.Lock()
		e.subtests.parallel.put(me.runT, g)
		e.mu.Unlock()
	}
	me.par = g
	Add(&g.running, 1)
	e.mu.Lock()
	// The parent comes back from t.Run now, before its subtest ends. If
	// it kept the token for its return (subtests.go), it takes it, and me
	// waits for a turn; otherwise wait for it as for any goroutine in
	// uncontrolled code.
	p := me.runParent
	handBack := p != nil && p.runReserved && p.state == gBlocked && e.cur.Load() == me && !e.aborting
	if handBack {
		e.cur.Store(p) // before the parent can look, as it returns
	} else if p != nil {
		e.subtests.endRunWait(p, &e.ndetached)
	}
	e.mu.Unlock()
	sig <- true      // what testing's t.Parallel sends: the parent's t.Run returns true
	me.paused = true // in testing's t.Parallel, for a dump, from now on
	if handBack && !e.park(me) {
		return // the execution ended: go on as under go test
	}
	Recv(g.barrier)
	me.paused = false
}

// releaseParallel runs, as testing does when a test's function has
// returned, the parallel subtests of t, and waits for them; mu is the
// execution's lock. ended is whether the function returned; one that
// stopped in t.FailNow or t.SkipNow (t then failed or skipped) ended too,
// one that panicked did not: Go does not run them then.
//
//go:norace
func (s *subtests) releaseParallel(mu *rtMutex, t *testing.T, ended bool) {
	mu.Lock()
	g := s.parallel.get(t)
	mu.Unlock()
	// t.Failed only when t has parallel subtests: under -race it checks
	// for races, and fails t on one, which in a subtest left running by
	// an ended schedule panics inside testing's lock (a fatal error, not
	// a panic dropLatePanic could drop).
	if g == nil || !ended && !t.Failed() && !t.Skipped() {
		return
	}
	Close(g.barrier)
	Wait(&g.running)
}

// parallelDone is the end of a parallel subtest g, after its own parallel
// subtests: its parent may end.
//
//go:norace
func parallelDone(g *goroutine) {
	if g.par != nil {
		Done(&g.par.running)
	}
}

// testSignal is t's channel to its parent's t.Run, on which testing's
// t.Parallel releases the parent; nil where testing's fields are not a
// one-slot, empty chan bool named signal.
//
//go:norace
func testSignal(t *testing.T) chan bool {
	v := fieldByName(reflect.ValueOf(t).Elem(), "signal")
	if !v.IsValid() || v.Type() != reflect.TypeFor[chan bool]() {
		return nil
	}
	c := *(*chan bool)(unsafe.Pointer(v.UnsafeAddr()))
	if cap(c) != 1 || len(c) != 0 {
		return nil
	}
	return c
}
