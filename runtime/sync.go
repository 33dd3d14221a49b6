package runtime

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The model of package sync. Inside an execution the runtime's model is the
// truth for every sync object an instrumented hook touches: the real
// sync.Mutex, WaitGroup, Once or Cond is not used, so the scheduler always
// knows who holds what and who waits for what. The model lives on the
// execution and starts empty: every mutex is unlocked and every WaitGroup
// counter is zero at the start of each execution, whatever earlier
// executions left behind (a Once starts as the real Once is: see once.go).
//
// Goroutines waiting on a sync object are runnable exactly when their
// operation can complete (a free mutex, a drained RWMutex, ...): a choice
// of the strategy is never wasted on a goroutine that would block again,
// and which waiter wins is a goroutine decision like any other.
//
// Limitation: uncontrolled code (an uninstrumented library) that locks the
// same mutex uses the real one and does not see the model's state.

// syncState is the execution's model of sync objects, keyed by their
// address. Maps are made on first use: most executions touch few kinds.
type syncState struct {
	mutexes rmap[*sync.Mutex, *mutexState]
	rws     rmap[*sync.RWMutex, *rwState]
	wgs     rmap[*sync.WaitGroup, *wgState]
	onces   rmap[*sync.Once, *onceState]
	conds   rmap[*sync.Cond, *condState]
}

// everControlled is set once any execution has run in this process: from
// then on, pass-through hooks may be called by goroutines left over from
// an execution, whose earlier operations went to a model and not to the
// real object (see unlockLeftover).
var everControlled atomic.Bool

//go:norace
func (s *syncState) init() {
	if !everControlled.Load() {
		everControlled.Store(true)
	}
}

//go:norace
func (s *syncState) mutex(m *sync.Mutex) *mutexState {
	st := s.mutexes.get(m)
	if st == nil {
		st = &mutexState{}
		s.mutexes.put(m, st)
	}
	return st
}

//go:norace
func (s *syncState) rw(m *sync.RWMutex) *rwState {
	st := s.rws.get(m)
	if st == nil {
		st = &rwState{}
		s.rws.put(m, st)
	}
	return st
}

// gset is a list of goroutines waiting on one sync object, in arrival
// order.
type gset []*goroutine

//go:norace
func (q *gset) add(g *goroutine) {
	for _, x := range *q {
		if x == g {
			return
		}
	}
	*q = append(*q, g)
}

//go:norace
func (q *gset) remove(g *goroutine) {
	for i, x := range *q {
		if x == g {
			*q = deleteAt(*q, i)
			return
		}
	}
}

// unready blocks again a waiter that was made runnable but has not run:
// the object it waits for was taken by another goroutine first. Lock held.
//
//go:norace
func (e *execution) unready(g *goroutine, what string) {
	if g.state == gRunnable && e.cur.Load() != g {
		e.setState(g, gBlocked)
	}
	g.waitObj = what
}

// fatal reports a Go fatal error, such as "sync: unlock of unlocked mutex".
// Go cannot recover from one and kills the process; gosct records it as a
// bug of kind panic, ends the execution and the calling goroutine, and
// goes on with the next schedule. An adopted goroutine returns (it must
// then skip its operation). Lock held; released.
//
//go:norace
func (e *execution) fatal(me *goroutine, msg string) {
	stack := debug.Stack()
	e.abortLocked(me, e.fatalBug(me, "fatal error: "+msg, stack))
	e.mu.Unlock()
	e.die(me)
}

// fatalBug is the bug of a Go fatal error in g.
//
//go:norace
func (e *execution) fatalBug(g *goroutine, msg string, stack []byte) *bug {
	b := &bug{kind: kindPanic, gs: []gsnap{{id: g.id, created: g.creationSite(), state: "fatal error", stack: userStack(string(stack))}}}
	who := "goroutine " + g.name()
	if g == e.main {
		who = "the test goroutine"
	}
	b.message = msg + " (in " + who + ")"
	b.key = kindPanic + ":" + msg + ":" + firstFrame(b.gs[0].stack)
	return b
}

// gname is how a wait description names a goroutine.
//
//go:norace
func gname(g *goroutine) string {
	if g == nil {
		return "?"
	}
	return "G" + itoa(g.id)
}

// fieldPtr returns a pointer to the field at off of the object at p.
//
//go:norace
func fieldPtr(p unsafe.Pointer, off uintptr) unsafe.Pointer { return unsafe.Add(p, off) }

// syncWaiter is a goroutine parked on a sync object until another
// goroutine completes its operation for it (grants a read lock, signals a
// Cond, releases a WaitGroup's waiters).
type syncWaiter struct {
	g    *goroutine
	done bool
}

// grant completes w's operation and makes its goroutine runnable. Lock
// held.
//
//go:norace
func (e *execution) grant(w *syncWaiter) {
	w.done = true
	e.ready(w.g)
}

// awaitGrant blocks me until w is granted. Lock held on entry; on true, held
// on return; false: released, the execution is over (do the operation
// uncontrolled).
//
//go:norace
func (e *execution) awaitGrant(me *goroutine, w *syncWaiter, what string) bool {
	for !w.done {
		if !e.block(me, what) {
			return false
		}
		e.mu.Lock()
	}
	return true
}

// acquire, release and releaseMerge are the happens-before edges of a sync
// operation on the object at p, for Go's race detector (-race) and for
// gosct's own (memory.go). Called by the goroutine that synchronizes.
//
//go:norace
func (e *execution) acquire(p unsafe.Pointer) {
	e.noteObj(e.cur.Load(), p)
	goRaceAcquire(p)
	e.race.acquire(e.cur.Load(), p)
}

//go:norace
func (e *execution) release(p unsafe.Pointer) {
	e.noteObj(e.cur.Load(), p)
	goRaceRelease(p)
	e.race.release(e.cur.Load(), p)
}

//go:norace
func (e *execution) releaseMerge(p unsafe.Pointer) {
	e.noteObj(e.cur.Load(), p)
	goRaceReleaseMerge(p)
	e.race.release(e.cur.Load(), p)
}
