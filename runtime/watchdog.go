package runtime

import (
	"sync"
	"time"
)

// The watchdog keeps uncontrolled code from hanging an execution: when the
// goroutine holding the token makes no scheduling decision for
// settings.detachAfter (it blocks in a system call, in a library the
// rewriter did not instrument, or computes for long), it is detached, and
// the token goes to another goroutine. The detached goroutine takes the
// token back at its next hook; the schedule is marked as possibly not
// replaying exactly.

var watchdogOnce sync.Once

//go:norace
func startWatchdog() { watchdogOnce.Do(func() { go watchdog() }) }

//go:norace
func watchdog() {
	var (
		last     *execution
		lastProg int64
		lastCur  *goroutine
		since    time.Time
	)
	for {
		time.Sleep(10 * time.Millisecond)
		e := active.Load()
		if e == nil {
			last = nil
			continue
		}
		now := time.Now()
		p, cur := e.progress.Load(), e.cur.Load()
		if cur == nil {
			e.kick()
		}
		if e != last || p != lastProg || cur != lastCur || cur == nil {
			last, lastProg, lastCur, since = e, p, cur, now
			continue
		}
		if now.Sub(since) > e.set.detachAfter {
			e.detach(cur, p)
			since = now
		}
	}
}

// detach takes the token from g, which has held it without progress.
//
//go:norace
func (e *execution) detach(g *goroutine, progress int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.over || e.aborting || e.cur.Load() != g || e.progress.Load() != progress || g.state != gRunnable {
		return
	}
	e.setState(g, gDetached)
	e.cur.Store(nil)
	e.handOff(g)
}

// kick runs the scheduler when the token is free (every goroutine is
// blocked or in uncontrolled code): timers may be due, polled objects may
// have changed, or the execution may be over.
//
//go:norace
func (e *execution) kick() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.over || e.aborting || e.cur.Load() != nil {
		return
	}
	e.handOff(nil)
}
