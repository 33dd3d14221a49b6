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
func (s *syncState) cond(c *sync.Cond) *condState {
	st := s.conds.get(c)
	if st == nil {
		st = &condState{}
		s.conds.put(c, st)
	}
	return st
}

// unlockModel releases the model Locker k at p for me, or returns Go's
// fatal error. Lock held.
//
//go:norace
func (e *execution) unlockModel(me *goroutine, k lockerKind, p unsafe.Pointer) string {
	switch k {
	case lkMutex:
		st := e.sync.mutex((*sync.Mutex)(p))
		if !st.locked {
			return "sync: unlock of unlocked mutex"
		}
		e.release(p)
		e.releaseMutex(st)
	case lkRW:
		e.release(p)
		return e.rwUnlock(e.sync.rw((*sync.RWMutex)(p)))
	case lkRead:
		e.releaseMerge(p)
		return e.rwRUnlock(me, e.sync.rw((*sync.RWMutex)(p)))
	}
	return ""
}

// lockModel acquires the model Locker k at p for me. Lock held on entry; on
// true, held on return; false: released, the execution is over.
//
//go:norace
func (e *execution) lockModel(me *goroutine, k lockerKind, p unsafe.Pointer) bool {
	ok := true
	switch k {
	case lkMutex:
		ok = e.acquireMutex(me, e.sync.mutex((*sync.Mutex)(p)), "mutex")
	case lkRW:
		ok = e.rwLock(me, e.sync.rw((*sync.RWMutex)(p)))
	case lkRead:
		ok = e.rwRLock(me, e.sync.rw((*sync.RWMutex)(p)))
	}
	if ok {
		e.acquire(p)
	}
	return ok
}

// CondWait is the rewriting of c.Wait().
//
//go:norace
func CondWait(c *sync.Cond) {
	e, me := enter()
	if e == nil || !e.yieldOn(me, opCondWait, ptrOf(c)) {
		c.Wait()
		return
	}
	e.mu.Lock()
	cs := e.sync.cond(c)
	w := &syncWaiter{g: me}
	cs.waiters = append(cs.waiters, w)
	k, p := classify(c.L)
	if msg := e.unlockModel(me, k, p); msg != "" {
		cs.remove(w)
		e.fatal(me, msg)
		return
	}
	if k == lkOther {
		e.mu.Unlock()
		c.L.Unlock()
		e.mu.Lock()
	}
	if !e.awaitGrant(me, w, "Signal or Broadcast") {
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
	if !e.lockModel(me, k, p) {
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
func (e *execution) wake(c *sync.Cond, w *syncWaiter) {
	if m, ok := c.L.(*sync.Mutex); ok {
		if st := e.sync.mutex(m); st.locked {
			w.done = true
			st.waiters.add(w.g)
			w.g.waitObj = "mutex held by " + gname(st.holder)
			w.g.op = opLock
			w.g.ev = evRecord{obj: unsafe.Pointer(m)} // its next step takes L
			return
		}
	}
	e.grant(w)
}

// Signal is the rewriting of c.Signal(). Without a waiter in the model it
// signals the real Cond, for a waiter in uncontrolled code.
//
//go:norace
func Signal(c *sync.Cond) {
	e, me := enter()
	if e == nil || !e.yieldOn(me, opSignal, ptrOf(c)) {
		c.Signal()
		return
	}
	e.mu.Lock()
	cs := e.sync.cond(c)
	if len(cs.waiters) == 0 {
		e.mu.Unlock()
		c.Signal()
		return
	}
	w := cs.waiters[0]
	cs.waiters = deleteAt(cs.waiters, 0)
	e.wake(c, w)
	e.mu.Unlock()
}

// Broadcast is the rewriting of c.Broadcast(); it also broadcasts the real
// Cond, for waiters in uncontrolled code.
//
//go:norace
func Broadcast(c *sync.Cond) {
	e, me := enter()
	if e == nil || !e.yieldOn(me, opBroadcast, ptrOf(c)) {
		c.Broadcast()
		return
	}
	e.mu.Lock()
	cs := e.sync.cond(c)
	for _, w := range cs.waiters {
		e.wake(c, w)
	}
	cs.waiters = cs.waiters[:0]
	e.mu.Unlock()
	c.Broadcast()
}
