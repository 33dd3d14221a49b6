package runtime

import "fmt"

// Partial deadlocks, found while the execution goes on. A goroutine about
// to block on a lock (a Mutex, a RWMutex's write or read side) that only
// goroutines blocked on locks can release, each waiting for a lock held by
// the next, back to it, is blocked for ever whatever the other goroutines
// do: the leak rule's "blocked on what nothing that can still run
// reaches" (leak.go), known at once. It is reported then, as a deadlock,
// even if the test goes on for ever (a server loop, a ticker) and would
// never reach the end where a leak or a deadlock is otherwise found.
// (Go lets a goroutine unlock a Mutex another locked; a cycle that such a
// third goroutine would break is reported all the same.)

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
	if from(me) {
		return path
	}
	return nil
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
