package runtime

import "sync"

// sync.Mutex. The model is a flag and the list of goroutines waiting for
// it. Go's mutex lets any waiter, or a goroutine arriving just then, take
// a mutex that is unlocked: its starvation mode only hands the mutex to
// the oldest waiter after it has waited for a millisecond, a matter of
// timing that is always avoidable. Since the moment a goroutine starts
// waiting inside Lock is not observable, any goroutine blocked in Lock may
// be the one that wins. The model does exactly that: Unlock makes every
// waiter runnable, the strategy's choice of goroutine decides who takes
// the mutex, and the moment one does, the others are blocked again.

type mutexState struct {
	locked  bool
	holder  *goroutine
	waiters gset
	// A Mutex has no owner (cycle.go, mayRelease): born is how many
	// goroutines the execution had when holder took it, those created
	// since may have been handed it; handed is set once a goroutine
	// other than its holder unlocked it.
	born   int
	handed bool
}

// acquire takes st for me, waiting while it is held; kind names the
// object in wait descriptions. mu (the runtime's lock) held on entry; on
// true, held on return; false: released, the execution is over.
//
//go:norace
func (st *mutexState) acquire(s scheduler, mu *rtMutex, me *goroutine, kind string) bool {
	for st.locked {
		st.waiters.add(me)
		if !s.blockOnLock(me, lockWait{m: st}, kind+" held by "+gname(st.holder)) {
			mu.Lock()
			st.waiters.remove(me)
			mu.Unlock()
			return false
		}
		mu.Lock()
	}
	st.take(s, me, kind)
	return true
}

// take locks a free st for me; the waiters made runnable by its last
// unlock wait again. Lock held.
//
//go:norace
func (st *mutexState) take(s scheduler, me *goroutine, kind string) {
	st.waiters.remove(me)
	st.locked, st.holder = true, me
	st.born = len(me.e.gs)
	if len(st.waiters) > 0 {
		s.unreadyAll(st.waiters, kind+" held by "+gname(me))
	}
}

// release unlocks st for me: every waiter may now take it. Lock held.
//
//go:norace
func (st *mutexState) release(s scheduler, me *goroutine) {
	if st.holder != me {
		st.handed = true
	}
	st.locked, st.holder = false, nil
	s.readyAll(st.waiters)
}

// Lock locks m: the rewriting of m.Lock() for a sync.Mutex. It is not
// reentrant: a goroutine locking a mutex it holds blocks forever.
//
//go:norace
func Lock(m *sync.Mutex) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opLock, evRecord{obj: ptrOf(m)}) {
		m.Lock()
		return
	}
	me.opObj = ptrOf(m)
	e.mu.Lock()
	if !e.models.mutex(m).acquire(e, &e.mu, me, "mutex") {
		m.Lock()
		return
	}
	e.edge(acquireEdge, ptrOf(m))
	e.mu.Unlock()
}

// TryLock tries to lock m without blocking: the rewriting of m.TryLock().
//
//go:norace
func TryLock(m *sync.Mutex) bool {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opLock, evRecord{obj: ptrOf(m), try: true}) {
		return m.TryLock()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	st := e.models.mutex(m)
	if st.locked {
		return false
	}
	st.take(e, me, "mutex")
	e.edge(acquireEdge, ptrOf(m))
	return true
}

// Unlock unlocks m: the rewriting of m.Unlock(). Unlocking an unlocked
// mutex is a Go fatal error, reported as a bug of kind panic.
//
//go:norace
func Unlock(m *sync.Mutex) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opUnlock, evRecord{obj: ptrOf(m)}) {
		unlockLeftover(m)
		return
	}
	e.mu.Lock()
	st := e.models.mutex(m)
	if !st.locked && me.adopted {
		// A goroutine that joined the execution after locking m outside
		// it (it was started by uncontrolled code, or by an earlier test
		// or execution): its Lock went to the real mutex, so must this
		// Unlock. Reporting Go's fatal error here would be a false alarm.
		e.mu.Unlock()
		unlockLeftover(m)
		return
	}
	if !st.locked {
		e.fatal(me, "sync: unlock of unlocked mutex")
		return
	}
	e.edge(releaseEdge, ptrOf(m))
	st.release(e, me)
	e.mu.Unlock()
}

// unlockLeftover is the pass-through Unlock. Once executions have run in
// the process, the caller may be a goroutine that outlived one (an
// adopted goroutine released at its end) unlocking a mutex it locked in
// the model: the real mutex is unlocked, and Go's fatal error would kill
// the whole test binary. Such an unlock is dropped. The cost: after the
// first execution, a real unlock of an unlocked mutex by uncontrolled code
// goes unreported.
//
//go:norace
func unlockLeftover(m *sync.Mutex) {
	if everControlled.Load() && m.TryLock() {
		m.Unlock() // it was unlocked: restore, and drop the caller's unlock
		return
	}
	m.Unlock()
}
