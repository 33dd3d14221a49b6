package runtime

import (
	"runtime"
	"sync"
)

// sync.WaitGroup, following waitgroup.go. The model is the counter and the
// goroutines blocked in Wait. Go's Add is not atomic when it brings the
// counter to zero with waiters: it checks the state, then resets it and
// wakes them. An Add of a positive delta in between panics ("Add called
// concurrently with Wait"), and so does the goroutine that was resetting;
// the model keeps that window open as a second scheduling point, so the
// misuse is reachable as in Go. A waiter woken when the counter has
// already gone up again panics as Go's does ("reused before previous Wait
// has returned").

type wgState struct {
	n       int
	waiters []*syncWaiter
	// zeroing is set while the goroutine that brought the counter to zero
	// has yet to wake the waiters.
	zeroing bool
}

//go:norace
func (m *models) wg(wg *sync.WaitGroup) *wgState {
	st := m.wgs.get(wg)
	if st == nil {
		st = &wgState{}
		m.wgs.put(wg, st)
	}
	return st
}

const (
	msgNegative = "sync: negative WaitGroup counter"
	msgMisuse   = "sync: WaitGroup misuse: Add called concurrently with Wait"
	msgReused   = "sync: WaitGroup is reused before previous Wait has returned"
)

// Add adds delta to wg's counter: the rewriting of wg.Add(delta).
//
//go:norace
func Add(wg *sync.WaitGroup, delta int) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opWaitGroup, evRecord{obj: ptrOf(wg)}) {
		addLeftover(wg, delta)
		return
	}
	e.mu.Lock()
	if delta < 0 {
		e.edge(releaseMergeEdge, ptrOf(wg))
	}
	st := e.models.wg(wg)
	st.n += delta
	if st.n < 0 && me.adopted {
		// A Done for an Add made outside the execution (by the goroutine's
		// starter, in uncontrolled code or an earlier test): it belongs
		// to the real counter. See Unlock.
		st.n -= delta
		e.mu.Unlock()
		addLeftover(wg, delta)
		return
	}
	if st.n < 0 {
		e.mu.Unlock()
		panic(msgNegative)
	}
	if delta > 0 && st.n == delta && (st.zeroing || len(st.waiters) > 0) {
		e.mu.Unlock()
		panic(msgMisuse)
	}
	if st.n > 0 || len(st.waiters) == 0 {
		e.mu.Unlock()
		return
	}
	// The counter is zero and goroutines wait: Go checks that nothing
	// changed, then wakes them.
	st.zeroing = true
	nw := len(st.waiters)
	e.mu.Unlock()
	if !e.yieldEv(me, opWaitGroup, evRecord{obj: ptrOf(wg)}) {
		return
	}
	e.mu.Lock()
	st.zeroing = false
	if st.n != 0 || len(st.waiters) != nw {
		e.mu.Unlock()
		panic(msgMisuse)
	}
	for _, w := range st.waiters {
		w.grant(e)
	}
	st.waiters = st.waiters[:0]
	e.mu.Unlock()
}

// Done decrements wg's counter: the rewriting of wg.Done().
//
//go:norace
func Done(wg *sync.WaitGroup) { Add(wg, -1) }

// Wait blocks until wg's counter is zero: the rewriting of wg.Wait().
//
//go:norace
func Wait(wg *sync.WaitGroup) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opWait, evRecord{obj: ptrOf(wg)}) {
		wg.Wait()
		return
	}
	me.opObj = ptrOf(wg)
	e.mu.Lock()
	st := e.models.wg(wg)
	if st.n == 0 {
		e.edge(acquireEdge, ptrOf(wg))
		e.mu.Unlock()
		return
	}
	w := &syncWaiter{g: me}
	st.waiters = append(st.waiters, w)
	if !w.await(e, &e.mu, me, "counter "+itoa(st.n)) {
		wg.Wait()
		return
	}
	reused := st.n != 0 || len(st.waiters) != 0
	e.edge(acquireEdge, ptrOf(wg))
	e.mu.Unlock()
	if reused {
		panic(msgReused)
	}
}

// WaitGroupGo is the rewriting of wg.Go(f) (Go 1.25): Add(1), then f in a
// new goroutine that calls Done when f returns or calls runtime.Goexit. If
// f panics, Done is not called, as in Go: the panic ends the program.
//
//go:norace
func WaitGroupGo(wg *sync.WaitGroup, f func()) {
	body := func() {
		defer func() {
			if x := recover(); x != nil {
				panic(x)
			}
			Done(wg)
		}()
		f()
	}
	e, me := enter()
	if e == nil || !e.yieldEv(me, opWaitGroup, evRecord{obj: ptrOf(wg)}) {
		addLeftover(wg, 1)
		go body()
		return
	}
	var pcs [1]uintptr
	runtime.Callers(2, pcs[:])
	e.mu.Lock()
	st := e.models.wg(wg)
	st.n++
	if st.n == 1 && (st.zeroing || len(st.waiters) > 0) {
		e.mu.Unlock()
		panic(msgMisuse)
	}
	e.mu.Unlock()
	e.spawn(me, pcs[0], body)
}

// addLeftover is the pass-through Add. Once executions have run, the
// caller may be a goroutine that outlived one, calling Done on a
// WaitGroup whose Add went to the model: the real counter would go
// negative and the panic, in a goroutine nobody recovers, would kill the
// test binary. Such a Done is dropped (see unlockLeftover for the cost).
//
//go:norace
func addLeftover(wg *sync.WaitGroup, delta int) {
	if delta < 0 && everControlled.Load() && wgCounter(wg)+delta < 0 {
		return
	}
	wg.Add(delta)
}
