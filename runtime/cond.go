package runtime

import (
	"sync"
	"unsafe"
)

// sync.Cond. Wait joins the Cond's FIFO list of waiters, then releases L
// (through the model when L is a sync.Mutex, a sync.RWMutex or a read
// locker, through its methods otherwise), parks until Signal or Broadcast
// picks it, and re-acquires L. Signal wakes the waiter that has waited
// longest, as Go's notifyList does; Broadcast wakes all. There are no
// spurious wake-ups, since Go has none: a Signal sent before anyone waits
// is lost, and the waiter that comes later stays blocked (a reachable
// deadlock or leak).
//
// A goroutine woken while L is held waits for L without first becoming
// runnable: choosing it could only block it again.

type condState struct {
	waiters []*syncWaiter
}

//go:norace
func (m *models) cond(c *sync.Cond) *condState {
	st := m.conds.get(c)
	if st == nil {
		st = &condState{}
		m.conds.put(c, st)
	}
	return st
}

// unlockModel releases the model Locker k at p for me, or returns Go's
// fatal error. Lock held.
//
//go:norace
func (m *models) unlockModel(s scheduler, me *goroutine, k lockerKind, p unsafe.Pointer) string {
	switch k {
	case lkMutex:
		st := m.mutex((*sync.Mutex)(p))
		if !st.locked {
			return "sync: unlock of unlocked mutex"
		}
		s.edge(releaseEdge, p)
		st.release(s, me)
	case lkRW:
		s.edge(releaseEdge, p)
		return m.rw((*sync.RWMutex)(p)).unlock(s, me)
	case lkRead:
		s.edge(releaseMergeEdge, p)
		return m.rw((*sync.RWMutex)(p)).runlock(s, me)
	}
	return ""
}

// lockModel acquires the model Locker k at p for me. mu (the runtime's
// lock) held on entry; on true, held on return; false: released, the
// execution is over.
//
//go:norace
func (m *models) lockModel(s scheduler, mu *rtMutex, me *goroutine, k lockerKind, p unsafe.Pointer) bool {
	ok := true
	switch k {
	case lkMutex:
		ok = m.mutex((*sync.Mutex)(p)).acquire(s, mu, me, "mutex")
	case lkRW:
		ok = m.rw((*sync.RWMutex)(p)).lock(s, mu, me)
	case lkRead:
		ok = m.rw((*sync.RWMutex)(p)).rlock(s, mu, me)
	}
	if ok {
		s.edge(acquireEdge, p)
	}
	return ok
}

// CondWait is the rewriting of c.Wait().
//
//go:norace
func CondWait(c *sync.Cond) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opCondWait, evRecord{obj: ptrOf(c)}) {
		c.Wait()
		return
	}
	e.mu.Lock()
	cs := e.models.cond(c)
	w := &syncWaiter{g: me}
	cs.waiters = append(cs.waiters, w)
	k, p := classify(c.L)
	if msg := e.models.unlockModel(e, me, k, p); msg != "" {
		cs.remove(w)
		e.fatal(me, msg)
		return
	}
	if k == lkOther {
		e.mu.Unlock()
		c.L.Unlock()
		e.mu.Lock()
	}
	if !w.await(e, &e.mu, me, "Signal or Broadcast") {
		// The execution is over: return as a woken Wait would, with L
		// locked (for real).
		e.mu.Lock()
		cs.remove(w)
		e.mu.Unlock()
		c.L.Lock()
		return
	}
	if k == lkOther {
		e.mu.Unlock()
		c.L.Lock()
		return
	}
	if !e.models.lockModel(e, &e.mu, me, k, p) {
		c.L.Lock()
		return
	}
	e.mu.Unlock()
}

//go:norace
func (cs *condState) remove(w *syncWaiter) {
	for i, x := range cs.waiters {
		if x == w {
			cs.waiters = deleteAt(cs.waiters, i)
			return
		}
	}
}

// wake grants w's Wait. If L is a mutex of the model that is held, w's
// goroutine goes straight to waiting for it. Lock held.
//
//go:norace
func (m *models) wake(s scheduler, c *sync.Cond, w *syncWaiter) {
	if l, ok := c.L.(*sync.Mutex); ok {
		if st := m.mutex(l); st.locked {
			w.done = true
			st.waiters.add(w.g)
			w.g.waitObj = "mutex held by " + gname(st.holder)
			w.g.op = opLock
			w.g.ev = evRecord{obj: unsafe.Pointer(l)} // its next step takes L
			return
		}
	}
	w.grant(s)
}

// Signal is the rewriting of c.Signal(). Without a waiter in the model it
// signals the real Cond, for a waiter in uncontrolled code.
//
//go:norace
func Signal(c *sync.Cond) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opSignal, evRecord{obj: ptrOf(c)}) {
		c.Signal()
		return
	}
	e.mu.Lock()
	cs := e.models.cond(c)
	if len(cs.waiters) == 0 {
		e.mu.Unlock()
		c.Signal()
		return
	}
	w := cs.waiters[0]
	cs.waiters = deleteAt(cs.waiters, 0)
	e.models.wake(e, c, w)
	e.mu.Unlock()
}

// Broadcast is the rewriting of c.Broadcast(); it also broadcasts the real
// Cond, for waiters in uncontrolled code.
//
//go:norace
func Broadcast(c *sync.Cond) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opBroadcast, evRecord{obj: ptrOf(c)}) {
		c.Broadcast()
		return
	}
	e.mu.Lock()
	cs := e.models.cond(c)
	for _, w := range cs.waiters {
		e.models.wake(e, c, w)
	}
	cs.waiters = cs.waiters[:0]
	e.mu.Unlock()
	c.Broadcast()
}
