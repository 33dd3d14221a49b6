package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// The model of package sync. Inside an execution the runtime's model is the
// truth for every sync object an instrumented hook touches: the real
// sync.Mutex, WaitGroup, Once or Cond is not used, so the scheduler always
// knows who holds what and who waits for what. The model lives in the
// execution's models (models.go) and starts empty: every mutex is unlocked
// and every WaitGroup counter is zero at the start of each execution,
// whatever earlier executions left behind (a Once starts as the real Once
// is: see once.go).
//
// Goroutines waiting on a sync object are runnable exactly when their
// operation can complete (a free mutex, a drained RWMutex, ...): a choice
// of the strategy is never wasted on a goroutine that would block again,
// and which waiter wins is a goroutine decision like any other.
//
// Limitation: uncontrolled code (an uninstrumented library) that locks the
// same mutex uses the real one and does not see the model's state.

// everControlled is set once any execution has run in this process: from
// then on, pass-through hooks may be called by goroutines left over from
// an execution, whose earlier operations went to a model and not to the
// real object (see unlockLeftover).
var everControlled atomic.Bool

//go:norace
func (m *models) init() {
	if !everControlled.Load() {
		everControlled.Store(true)
	}
}

//go:norace
func (m *models) mutex(x *sync.Mutex) *mutexState {
	st := m.mutexes.get(x)
	if st == nil {
		st = &mutexState{}
		m.mutexes.put(x, st)
	}
	return st
}

//go:norace
func (m *models) rw(x *sync.RWMutex) *rwState {
	st := m.rws.get(x)
	if st == nil {
		st = &rwState{}
		m.rws.put(x, st)
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

// fatalBug is the bug of a Go fatal error in g; main: g is the test
// goroutine.
//
//go:norace
func fatalBug(g *goroutine, main bool, msg string, stack []byte) *bug {
	b := &bug{kind: kindPanic, gs: []gsnap{{id: g.id, created: g.creationSite(), state: "fatal error", stack: userStack(string(stack))}}}
	who := "goroutine " + g.name()
	if main {
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
func (w *syncWaiter) grant(s scheduler) {
	w.done = true
	s.ready(w.g)
}

// await blocks me until w is granted. mu (the runtime's lock) held on
// entry; on true, held on return; false: released, the execution is over
// (do the operation uncontrolled).
//
//go:norace
func (w *syncWaiter) await(s scheduler, mu *rtMutex, me *goroutine, what string) bool {
	for !w.done {
		if !s.block(me, what) {
			return false
		}
		mu.Lock()
	}
	return true
}
