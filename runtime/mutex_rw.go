package runtime

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// sync.RWMutex, following rwmutex.go. Writers first exclude each other
// with a mutex (w); the writer holding w then announces itself, and from
// that moment new readers block (Go's writer preference: a reader-writer-
// reader chain deadlocks) until it has drained the readers already in,
// taken the lock, and unlocked it. Its Unlock lets the readers that
// blocked meanwhile in, all at once, before the next writer can announce
// itself.

type rwState struct {
	w      mutexState
	writer rwWriter
	wg     *goroutine // the announced writer
	// readers hold read locks (a goroutine once per RLock); blocked wait
	// for the announced writer's Unlock.
	readers []*goroutine
	blocked []*syncWaiter
	// A read lock is tied to no goroutine either (cycle.go, mayRelease):
	// rborn is how many goroutines the execution had when the readers
	// last went from none to one, those created since may have been
	// handed a read lock; rhanded is set once a goroutine released a read
	// lock it did not take.
	rborn   int
	rhanded bool
}

// addReader counts a read lock of g. Lock held.
//
//go:norace
func (st *rwState) addReader(g *goroutine) {
	if len(st.readers) == 0 {
		st.rborn = len(g.e.gs)
	}
	st.readers = append(st.readers, g)
}

type rwWriter uint8

const (
	rwFree    rwWriter = iota
	rwPending          // announced, waiting for the readers to leave
	rwHeld
)

// lock write-locks st for me. mu (the runtime's lock) held on entry; on
// true, held on return; false: released, the execution is over.
//
//go:norace
func (st *rwState) lock(s scheduler, mu *rtMutex, me *goroutine) bool {
	if !st.w.acquire(s, mu, me, "rwmutex write lock") {
		return false
	}
	st.wg = me
	if len(st.readers) == 0 {
		st.writer = rwHeld
		return true
	}
	st.writer = rwPending
	for st.writer != rwHeld {
		if !s.blockOnLock(me, lockWait{rw: st, writer: true}, "readers to leave: "+gnames(st.readers)) {
			return false
		}
		mu.Lock()
	}
	return true
}

// unlock releases the write lock, or returns Go's fatal error. Lock held.
//
//go:norace
func (st *rwState) unlock(s scheduler, me *goroutine) string {
	if st.writer != rwHeld {
		return "sync: Unlock of unlocked RWMutex"
	}
	st.writer, st.wg = rwFree, nil
	for _, w := range st.blocked {
		st.addReader(w.g)
		w.grant(s)
	}
	st.blocked = st.blocked[:0]
	st.w.release(s, me)
	return ""
}

// rlock read-locks st for me; see lock.
//
//go:norace
func (st *rwState) rlock(s scheduler, mu *rtMutex, me *goroutine) bool {
	if st.writer == rwFree {
		st.addReader(me)
		return true
	}
	w := &syncWaiter{g: me}
	st.blocked = append(st.blocked, w)
	what := "rwmutex write-locked or a writer waiting: " + gname(st.wg)
	for !w.done {
		if !s.blockOnLock(me, lockWait{rw: st}, what) {
			return false
		}
		mu.Lock()
	}
	return true
}

// runlock releases a read lock (preferably one me holds: a read lock is
// not tied to a goroutine in Go), or returns Go's fatal error. Lock held.
//
//go:norace
func (st *rwState) runlock(s scheduler, me *goroutine) string {
	n := len(st.readers)
	if n == 0 {
		return "sync: RUnlock of unlocked RWMutex"
	}
	i := n - 1
	if !slices.Contains(st.readers, me) {
		st.rhanded = true
	}
	for j, g := range st.readers {
		if g == me {
			i = j
			break
		}
	}
	st.readers = deleteAt(st.readers, i)
	if len(st.readers) == 0 && st.writer == rwPending {
		st.writer = rwHeld
		s.ready(st.wg)
	}
	return ""
}

// RWLock write-locks rw: the rewriting of rw.Lock() for a sync.RWMutex.
//
//go:norace
func RWLock(rw *sync.RWMutex) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opRWLock, evRecord{obj: ptrOf(rw)}) {
		rw.Lock()
		return
	}
	me.opObj = ptrOf(rw)
	e.mu.Lock()
	if !e.models.rw(rw).lock(e, &e.mu, me) {
		rw.Lock()
		return
	}
	e.edge(acquireEdge, ptrOf(rw))
	e.edge(acquireEdge, rwReaders(rw))
	e.mu.Unlock()
}

// RWTryLock tries to write-lock rw: the rewriting of rw.TryLock().
//
//go:norace
func RWTryLock(rw *sync.RWMutex) bool {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opRWLock, evRecord{obj: ptrOf(rw), try: true}) {
		return rw.TryLock()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.models.rw(rw)
	if st.w.locked || len(st.readers) > 0 {
		return false
	}
	st.w.take(e, me, "rwmutex write lock")
	st.writer, st.wg = rwHeld, me
	e.edge(acquireEdge, ptrOf(rw))
	e.edge(acquireEdge, rwReaders(rw))
	return true
}

// RWUnlock write-unlocks rw: the rewriting of rw.Unlock(). Unlocking a
// RWMutex that is not write-locked is a Go fatal error, reported as a bug
// of kind panic. (Go detects it only when no writer is waiting for readers
// to leave; gosct always does.)
//
//go:norace
func RWUnlock(rw *sync.RWMutex) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opRWUnlock, evRecord{obj: ptrOf(rw)}) {
		rwUnlockLeftover(rw)
		return
	}
	e.mu.Lock()
	e.edge(releaseEdge, ptrOf(rw))
	if st := e.models.rw(rw); st.writer != rwHeld && me.adopted {
		// Locked outside the execution, unlocked inside: see Unlock.
		e.mu.Unlock()
		rwUnlockLeftover(rw)
		return
	}
	if msg := e.models.rw(rw).unlock(e, me); msg != "" {
		e.fatal(me, msg)
		return
	}
	e.mu.Unlock()
}

// RLock read-locks rw: the rewriting of rw.RLock().
//
//go:norace
func RLock(rw *sync.RWMutex) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opRLock, evRecord{obj: ptrOf(rw)}) {
		rw.RLock()
		return
	}
	me.opObj = ptrOf(rw)
	e.mu.Lock()
	if !e.models.rw(rw).rlock(e, &e.mu, me) {
		rw.RLock()
		return
	}
	e.edge(acquireEdge, ptrOf(rw))
	e.mu.Unlock()
}

// TryRLock tries to read-lock rw: the rewriting of rw.TryRLock().
//
//go:norace
func TryRLock(rw *sync.RWMutex) bool {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opRLock, evRecord{obj: ptrOf(rw), try: true}) {
		return rw.TryRLock()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.models.rw(rw)
	if st.writer != rwFree {
		return false
	}
	st.addReader(me)
	e.edge(acquireEdge, ptrOf(rw))
	return true
}

// RUnlock read-unlocks rw: the rewriting of rw.RUnlock(). Without a read
// lock held it is a Go fatal error, reported as a bug of kind panic.
//
//go:norace
func RUnlock(rw *sync.RWMutex) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opRUnlock, evRecord{obj: ptrOf(rw)}) {
		rUnlockLeftover(rw)
		return
	}
	e.mu.Lock()
	e.stepLog.noteObj(me, ptrOf(rw), len(e.trail)) // the step names the RWMutex, as RLock's does
	e.edge(releaseMergeEdge, rwReaders(rw))
	if st := e.models.rw(rw); len(st.readers) == 0 && me.adopted {
		// Read-locked outside the execution: see Unlock.
		e.mu.Unlock()
		rUnlockLeftover(rw)
		return
	}
	if msg := e.models.rw(rw).runlock(e, me); msg != "" {
		e.fatal(me, msg)
		return
	}
	e.mu.Unlock()
}

// rwUnlockLeftover and rUnlockLeftover are the pass-through unlocks; see
// unlockLeftover.
//
//go:norace
func rwUnlockLeftover(rw *sync.RWMutex) {
	if everControlled.Load() && rw.TryLock() {
		rw.Unlock()
		return
	}
	rw.Unlock()
}

//go:norace
func rUnlockLeftover(rw *sync.RWMutex) {
	if everControlled.Load() && rw.TryLock() {
		rw.Unlock()
		return
	}
	rw.RUnlock()
}

// rlocker is the sync.Locker that RLocker returns inside an execution: its
// methods are the hooks, so the read lock stays in the model even when
// uninstrumented code (a sync.Cond in a library) calls them.
type rlocker sync.RWMutex

// Lock read-locks the RWMutex.
//
//go:norace
func (r *rlocker) Lock() { RLock((*sync.RWMutex)(r)) }

// Unlock read-unlocks the RWMutex.
//
//go:norace
func (r *rlocker) Unlock() { RUnlock((*sync.RWMutex)(r)) }

// RLocker is the rewriting of rw.RLocker().
//
//go:norace
func RLocker(rw *sync.RWMutex) sync.Locker {
	if e, _ := enter(); e == nil {
		return rw.RLocker()
	}
	return (*rlocker)(rw)
}

// stdRLockerType is the dynamic type of the Locker that sync's own
// RLocker returns (made, say, before the execution started): the model
// recognizes it and finds its RWMutex.
var stdRLockerType = reflect.TypeOf(new(sync.RWMutex).RLocker())

// lockerKind is how a sync.Locker is locked inside an execution.
type lockerKind uint8

const (
	lkOther lockerKind = iota // its own methods
	lkMutex
	lkRW
	lkRead
)

// classify finds the model object behind a Locker.
//
//go:norace
func classify(l sync.Locker) (lockerKind, unsafe.Pointer) {
	switch m := l.(type) {
	case *sync.Mutex:
		return lkMutex, unsafe.Pointer(m)
	case *sync.RWMutex:
		return lkRW, unsafe.Pointer(m)
	case *rlocker:
		return lkRead, unsafe.Pointer(m)
	}
	if l == nil {
		return lkOther, nil
	}
	if reflect.TypeOf(l) == stdRLockerType {
		return lkRead, dataPtr(l)
	}
	return classifyEmbedded(l)
}

// LockerLock is the rewriting of l.Lock() on an interface value (such as
// a sync.Locker): the model's sync types go to their hooks, other
// Lockers' methods are called.
//
//go:norace
func LockerLock(l sync.Locker) {
	switch k, p := classify(l); k {
	case lkMutex:
		Lock((*sync.Mutex)(p))
	case lkRW:
		RWLock((*sync.RWMutex)(p))
	case lkRead:
		RLock((*sync.RWMutex)(p))
	default:
		l.Lock()
	}
}

// LockerUnlock is the rewriting of l.Unlock() on an interface value.
//
//go:norace
func LockerUnlock(l sync.Locker) {
	switch k, p := classify(l); k {
	case lkMutex:
		Unlock((*sync.Mutex)(p))
	case lkRW:
		RWUnlock((*sync.RWMutex)(p))
	case lkRead:
		RUnlock((*sync.RWMutex)(p))
	default:
		l.Unlock()
	}
}

// gnames lists goroutines for wait descriptions.
//
//go:norace
func gnames(gs []*goroutine) string {
	parts := make([]string, 0, len(gs))
	for _, g := range gs {
		parts = append(parts, gname(g))
	}
	return strings.Join(parts, ", ")
}

// rwReaders is the sync address of rw's read unlocks: a write lock
// acquires it, a read lock does not, so readers are not ordered with each
// other through rw (as in Go's own annotations: readerSem and writerSem),
// and a write under RLock races.
//
//go:norace
func rwReaders(rw *sync.RWMutex) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(rw), 1) }
