package runtime

import (
	"sync"
	"unsafe"
)

// models is the execution's part that models Go's synchronization objects:
// the wait queues of channels (chan.go, select.go), sync's Mutex, RWMutex,
// WaitGroup, Once and Cond (sync.go and the files it names), the contexts
// instrumented code made and the functions context.AfterFunc registered
// (context.go, afterfunc.go). Its state is keyed by the objects' addresses
// and starts empty in each execution; maps are made on first use: most
// executions touch few kinds.
//
// The models decide what an operation does to an object and who waits for
// it; what that means for the goroutines they ask the core through a
// scheduler, passed to the methods that need it, together with the
// runtime's lock (mu) for the methods that block. The race detector and
// the trail are not the models' business: the hooks call them, or the
// core does when a model records an edge (scheduler.edge).
type models struct {
	chans rmap[unsafe.Pointer, *chanState]
	// contexts are the contexts instrumented code made, by Done channel,
	// for the leak check (context.go, leak.go).
	contexts rmap[unsafe.Pointer, *ctxInfo]
	// afterFuncs are the functions context.AfterFunc registered and not
	// started or stopped as far as the last cancellation knew; cancels
	// counts the cancellations goroutines of the execution are running
	// (afterfunc.go).
	afterFuncs []*afterFunc
	cancels    rtCounter
	carried    []string // Onces found done by earlier executions (once.go)

	mutexes rmap[*sync.Mutex, *mutexState]
	rws     rmap[*sync.RWMutex, *rwState]
	wgs     rmap[*sync.WaitGroup, *wgState]
	onces   rmap[*sync.Once, *onceState]
	conds   rmap[*sync.Cond, *condState]
}

// scheduler is what the object models need from the core, the runtime's
// lock held: to make waiting goroutines runnable or blocked again, to
// block the calling goroutine until it is made runnable (releasing the
// lock), and to record a sync operation's happens-before edge for the race
// detectors and the trail. The execution is the scheduler.
type scheduler interface {
	ready(g *goroutine)
	readyAll(gs []*goroutine)
	unreadyAll(gs []*goroutine, what string)
	block(me *goroutine, what string) bool
	blockOnLock(me *goroutine, w lockWait, what string) bool
	edge(k edgeKind, p unsafe.Pointer)
}

// edgeKind is the kind of a sync operation's happens-before edge.
type edgeKind uint8

const (
	acquireEdge      edgeKind = iota // Go's RaceAcquire, the detector's acquire
	releaseEdge                      // RaceRelease, the detector's release
	releaseMergeEdge                 // RaceReleaseMerge, and its counterpart
)

// onlyQueues (queueing, for Event.Blocks) reports whether g's pending operation would block now with
// no effect but queueing g: a Lock of a held Mutex, a writer's Lock of an
// RWMutex another writer holds or waits for (not one that readers hold:
// that writer announces itself, and new readers then wait). Not when
// blocking would close a cycle of lock waits: that ends the execution
// with a deadlock (cycle.go), which running the others first can hide (a
// goroutine locking a mutex it holds, beside a test about to return).
// Lock held.
//
//go:norace
func (m *models) onlyQueues(g *goroutine) bool {
	if g.ev.try {
		return false
	}
	var st *mutexState
	switch g.op {
	case opLock:
		st = m.mutexes.get((*sync.Mutex)(g.ev.obj))
	case opRWLock:
		if rw := m.rws.get((*sync.RWMutex)(g.ev.obj)); rw != nil {
			st = &rw.w
		}
	}
	if st == nil || !st.locked {
		return false
	}
	saved := g.lockWait
	g.lockWait = lockWait{m: st}
	cycle := findLockCycle(g) != nil
	g.lockWait = saved
	return !cycle
}
