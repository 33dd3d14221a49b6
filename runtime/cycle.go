package runtime

import (
	"fmt"
	"slices"
)

// Partial deadlocks, found while the execution goes on. A goroutine about
// to block on a lock (a Mutex, a RWMutex's write or read side) that only
// goroutines blocked on locks can release, each waiting for a lock held by
// the next, back to it, is blocked for ever whatever the other goroutines
// do: the leak rule's "blocked on what nothing that can still run
// reaches" (leak.go), known at once. It is reported then, as a deadlock,
// even if the test goes on for ever (a server loop, a ticker) and would
// never reach the end where a leak or a deadlock is otherwise found.
//
// Go lets a goroutine unlock a Mutex another locked: a Mutex has no owner,
// and its "holder" is only the goroutine that locked it. A cycle is
// therefore certain only while no goroutine outside it that can still run
// may have been handed one of its mutexes (mayRelease): then it is no
// cycle yet, the goroutine just blocks, and if nobody unlocks the mutex,
// the deadlock or the leak is found when nothing can move. A goroutine
// may have been handed the mutex when it was started after the mutex was
// locked (`mu.Lock(); go func() { defer mu.Unlock(); ... }()`), or when
// the mutex was already unlocked by a goroutine other than its locker in
// this execution. A goroutine that existed before the lock and is handed
// it otherwise (over a channel, the first time) is not seen: such a cycle
// is reported all the same.

// lockWait is the lock a blocked goroutine waits for.
type lockWait struct {
	m *mutexState // a Mutex, or the writer lock of a RWMutex
	// rw: a RWMutex whose announced writer waits for the readers to
	// leave (writer), or whose reader waits for the announced writer.
	rw     *rwState
	writer bool
}

// holders are the goroutines that must release the lock w waits for.
// Lock held.
//
//go:norace
func (w lockWait) holders() []*goroutine {
	switch {
	case w.m != nil && w.m.holder != nil:
		return []*goroutine{w.m.holder}
	case w.rw != nil && w.writer:
		return w.rw.readers
	case w.rw != nil && w.rw.wg != nil:
		return []*goroutine{w.rw.wg}
	}
	return nil
}

// handedFrom is the index in the execution's goroutines of the first that
// may have been handed the lock w waits for (mayRelease), false when w
// waits for no held lock. A reader waiting for a writer waits for the
// writer's mutex; a writer waiting for the readers, for read locks, which
// no goroutine owns either. Lock held.
//
//go:norace
func (w lockWait) handedFrom() (int, bool) {
	m := w.m
	switch {
	case w.rw != nil && w.writer:
		if len(w.rw.readers) == 0 {
			return 0, false
		}
		if w.rw.rhanded {
			return 0, true
		}
		return w.rw.rborn, true
	case w.rw != nil:
		m = &w.rw.w
	}
	if m == nil || m.holder == nil {
		return 0, false
	}
	if m.handed {
		return 0, true
	}
	return m.born, true
}

// findLockCycle returns the goroutines of a cycle of lock waits through
// me, which is about to block on me.lockWait, or nil. Lock held.
//
//go:norace
func findLockCycle(me *goroutine) []*goroutine {
	path := []*goroutine{me}
	seen := map[*goroutine]bool{me: true}
	var from func(g *goroutine) bool
	from = func(g *goroutine) bool {
		for _, h := range g.lockWait.holders() {
			if h == me {
				return true
			}
			if seen[h] || h.state != gBlocked || h.lockWait == (lockWait{}) {
				continue
			}
			seen[h] = true
			path = append(path, h)
			if from(h) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if from(me) && !mayRelease(me.e.gs, path) {
		return path
	}
	return nil
}

// mayRelease reports whether a goroutine of gs outside the cycle, that
// can still run, may unlock one of the mutexes the cycle waits for
// (cycle.go's comment). A goroutine blocked waiting for a lock itself is
// not counted: it moves only once a lock is released; nor is a watcher,
// the runtime's stand-in for the standard library. Lock held.
//
//go:norace
func mayRelease(gs []*goroutine, cycle []*goroutine) bool {
	for _, g := range cycle {
		from, ok := g.lockWait.handedFrom()
		if !ok {
			continue
		}
		for _, h := range gs[min(from, len(gs)):] {
			if h.state == gDone || h.watcher || (h.state == gBlocked && h.lockWait != (lockWait{})) || slices.Contains(cycle, h) {
				continue
			}
			return true
		}
	}
	return false
}

// lockCycle is the bug of the goroutines gs, a cycle of lock waits
// (findLockCycle).
//
//go:norace
func (o *oracle) lockCycle(gs []*goroutine) *bug {
	b := &bug{kind: kindDeadlock, gs: snapshot(gs)}
	b.message = fmt.Sprintf("%d goroutine(s) blocked for ever, each waiting for a lock another of them holds (the other goroutines may go on): %s", len(gs), waitList(b.gs))
	b.key = kindDeadlock + ":" + siteKey(b.gs)
	return b
}
