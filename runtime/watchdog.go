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
	const tick = 10 * time.Millisecond
	var (
		last     *execution
		lastProg int64
		lastCur  *goroutine
		// stalled is how long the token holder has gone without a
		// decision, counting each tick for at most two ticks: when the
		// watchdog's own sleep overshoots, the machine did not run
		// this process (a loaded machine), and the token holder did not
		// run either. Wall time would detach goroutines that only
		// waited for a CPU, and make schedules depend on the load.
		stalled time.Duration
		prev    = time.Now()
	)
	for {
		time.Sleep(tick)
		now := time.Now()
		dt := min(now.Sub(prev), 2*tick)
		prev = now
		e := active.Load()
		if e == nil {
			last = nil
			continue
		}
		p, cur := e.progress.Load(), e.cur.Load()
		if cur == nil {
			e.kick()
		}
		if e != last || p != lastProg || cur != lastCur || cur == nil {
			last, lastProg, lastCur, stalled = e, p, cur, 0
			continue
		}
		if stalled += dt; stalled > e.set.detachAfter {
			e.detach(cur, p)
			stalled = 0
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
