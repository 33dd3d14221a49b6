package runtime

import (
	"sync"
	"time"
)

// The watchdog keeps uncontrolled code from stalling or hanging an
// execution. While an execution runs it looks at the token holder every
// few tens of microseconds (nap; less often while the token keeps moving,
// see napMoving): when the holder has made no scheduling decision since
// the last look, it reads what Go's scheduler says the holder is doing
// (gstatus.go):
//
//   - blocked in uncontrolled code (a channel or lock of a library,
//     netpoll, a sleep), or exited (a goroutine started by uncontrolled
//     code that went back to it and ended): detached at once, if anything
//     else could use the token (a runnable goroutine, a pending timer, a
//     goroutine waiting on a channel uncontrolled code feeds); otherwise
//     after settings.blockedAlone, which only matters for the bound below;
//   - in a system call: detached once the call has lasted
//     settings.syscallAfter (most calls return in microseconds);
//   - computing, paused by Go's own machinery (an allocation waiting for
//     the garbage collector: classifyReason), or in a state calibration
//     could not interpret: detached after settings.detachAfter without a
//     decision, as before the status could be read (and always, where it
//     cannot: gstatusOK false).
//
// A detached goroutine takes the token back at its next hook (foreign in
// sched.go, which also detaches a blocked holder at once when a goroutine
// arrives from uncontrolled code). The schedule is marked as possibly not
// replaying exactly.
//
// When no controlled goroutine can run and the execution waits for
// uncontrolled code (idle: execution.waitExternal), the watchdog is the one that waits:
// in a real select over the channels uncontrolled code may feed, a
// comeback channel signalled by detached goroutines returning to a hook,
// and a timer that re-reads the detached goroutines' states and enforces
// the bounds (idle.go).

var (
	watchdogOnce sync.Once
	// watchdogCycles counts the watchdog's passes, for tests.
	watchdogCycles rtCounter
)

//go:norace
func startWatchdog() {
	watchdogOnce.Do(func() {
		calibrateGstatus()
		go watchdog()
	})
}

//go:norace
func watchdog() {
	napInit()
	var (
		// hotUntil: a holder blocked in uncontrolled code was detached
		// lately: the test does I/O, and the watchdog looks more often.
		hotUntil time.Time
		last     *execution
		lastProg int64
		lastCur  *goroutine
		since    time.Time // when lastProg/lastCur were first seen
		// stalled is how long the holder has computed without a
		// decision: what its thread ran (stallStep), else each pass
		// for at most two naps (when the watchdog's own nap
		// overshoots, the machine did not run this process, and the
		// holder did not run either). Wall time would detach
		// goroutines that only waited for a CPU, and make schedules
		// depend on the load.
		stalled  time.Duration
		prev     time.Time
		sysSince time.Time // when the holder was first seen in a system call
		freeAt   time.Time // when the token was first seen free
		quiet    int       // passes without an execution
		// coldNap is the next nap out of hot mode: napCold after a
		// look that found the holder where it was, doubling up to
		// napMoving while each look finds the token moved.
		coldNap = napCold
		// cpuTid and cpuAt: the holder's thread and its CPU time at the
		// last look of a stall (threadcpu_linux.go), 0 before the first;
		// free, what is left of the stall's allowance (stallFree).
		cpuTid uint64
		cpuAt  time.Duration
		free   time.Duration
	)
	calibrateThreadCPU()
	for {
		watchdogCycles.Add(1)
		e := active.Load()
		if e == nil {
			last = nil
			if quiet++; quiet > 2000 {
				time.Sleep(10 * time.Millisecond) // no exploration going on
			} else {
				nap(napCold)
			}
			continue
		}
		quiet = 0
		if e.idle.waiting.Load() != 0 {
			e.idleWait()
			last, coldNap = nil, napCold
			continue
		}
		if time.Now().Before(hotUntil) {
			nap(napHot)
		} else {
			nap(coldNap)
		}
		now := time.Now()
		dt := min(now.Sub(prev), 2*napCold)
		prev = now
		if at := e.abortedAt.Load(); at != 0 && now.Sub(time.Unix(0, at)) > e.set.detachedGrace {
			// The execution was aborted while its test goroutine was in
			// uncontrolled code, and it has not come back.
			e.mu.Lock()
			e.abandonLocked()
			e.mu.Unlock()
		}
		p, cur := e.progress.Load(), e.cur.Load()
		if cur == nil {
			// The token is free but nobody waits for uncontrolled code
			// (a goroutine left it for a subtest to pick up): after a
			// while, look at why.
			if freeAt.IsZero() || e != last {
				freeAt = now
			} else if now.Sub(freeAt) > kickAfter {
				kick(e)
				freeAt = time.Time{}
			}
			last, lastCur = e, nil
			continue
		}
		freeAt = time.Time{}
		if e != last || p != lastProg || cur != lastCur {
			coldNap = min(2*coldNap, napMoving)
			last, lastProg, lastCur, since, sysSince, stalled = e, p, cur, now, time.Time{}, 0
			cpuTid, free = 0, stallFree
			continue
		}
		coldNap = napCold
		if now.Sub(since) > reservedFor {
			// The token may be kept for a subtest testing never
			// started, or a parent that never returns from t.Run.
			e.releaseStaleReservation(cur, p)
		}
		switch st, _ := cur.doing(); st {
		case runBlocked, runGone:
			if detachStuck(e, cur, p, now.Sub(since) > e.set.blockedAlone) {
				hotUntil = now.Add(hotFor)
			}
		case runSyscall:
			if sysSince.IsZero() {
				sysSince = now
			} else if now.Sub(sysSince) > e.set.syscallAfter {
				detachStuck(e, cur, p, now.Sub(sysSince) > e.set.blockedAlone)
			}
		default:
			sysSince = time.Time{}
			// The holder runs its own code, which takes real time
			// (charge.go): what its thread ran, where the thread's CPU
			// clock can be read (not the time it waited for a CPU on a
			// loaded machine), from the second look of the stall on.
			work := dt
			if threadCPUOK {
				work = 0
				tid := holderThread(cur.gp)
				cpu, ok := threadCPU(tid)
				if ok && tid != 0 && tid == cpuTid {
					work = min(dt, max(cpu-cpuAt, 0))
				}
				cpuTid, cpuAt = tid, cpu
				if !ok {
					cpuTid = 0
				}
			}
			allowed := min(work, free)
			free -= allowed
			e.record.noteStall(work-allowed, e.set.noStallCharge, &e.mu)
			if stalled += stallStep(cur, st, dt, work); stalled > e.set.detachAfter {
				detach(e, cur, p, "computing")
				stalled = 0
			}
		}
	}
}

// stallStep is how much a pass of dt adds to the stall of holder g, st
// what Go's scheduler says it does and work what its thread ran
// meanwhile (as charged): a holder is detached for its computing, not for
// the time it waited for a CPU. On a loaded machine (or with GOMAXPROCS
// 1, where the watchdog and the holder share a P) a holder that computes
// a few microseconds between decisions may wait 100 ms for a CPU, and a
// goroutine chosen before Go started it may wait as long to start;
// detaching them ran their steps outside the search, and a systematic
// search counted schedules that depended on the load (dpor's 120 orders
// of 5 writers became 250). A goroutine not started yet (its g unknown)
// runs gosct's code first: it adds nothing. Where the thread's CPU time
// cannot be read, or the holder is paused by Go's machinery or in a
// state calibration did not see (which may never end by itself), the
// wall time counts, as before.
//
//go:norace
func stallStep(g *goroutine, st gRun, dt, work time.Duration) time.Duration {
	switch {
	case haveGetg && g.gp == nil:
		return 0
	case threadCPUOK && st == runRunning:
		return work
	}
	return dt
}

// The watchdog's naps: napHot while tests detach blocked holders (for
// hotFor after the last one), napCold otherwise, and up to napMoving
// while the token keeps moving between looks.
//
// Each nap is a system call on the watchdog's own thread, and the
// process's other goroutines feel them: on a 2-core machine 20,000
// naps a second cost the pipeline test (testprogs/perf/pingpong) a fifth
// of its schedules/s, looks that found nothing to do since the token
// moves every few microseconds there. So while each look finds the token
// moved, the nap doubles, up to napMoving; the first look that finds the
// holder where it was brings it back to napCold. What that delays, by at
// most napMoving, is the first look at a holder that stops moving: its
// detach when it blocks in uncontrolled code (then hot mode takes over),
// the start of a stall's count (whose first stallFree is not charged
// anyway) and the start of an idle wait (a goroutine coming back from
// uncontrolled code takes the token itself meanwhile).
const (
	napHot    = 10 * time.Microsecond
	napCold   = 50 * time.Microsecond
	napMoving = 400 * time.Microsecond
	hotFor    = 50 * time.Millisecond
)

// stallFree is how much of a stall is not charged: gosct's own work in
// the holder's step (its collector's assists for the runtime's
// allocations, its bookkeeping) takes up to about that, and Go would not
// take it (charge.go).
const stallFree = time.Millisecond

// kickAfter is how long the token may lie free, with no goroutine
// waiting for uncontrolled code, before the watchdog runs the scheduler:
// a subtest's goroutine on its way to take it is given that long.
const kickAfter = 10 * time.Millisecond

// detachStuck detaches g, which holds the token and is blocked in
// uncontrolled code (or has exited there), if others wait for the token
// or long is set (execution.detachStuckLocked).
//
//go:norace
func detachStuck(e *execution, g *goroutine, progress int64, long bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.detachStuckLocked(g, progress, long)
}

// detach takes the token from g, which has held it without progress.
//
//go:norace
func detach(e *execution, g *goroutine, progress int64, why string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.detachLocked(g, progress, why)
}

// kick runs the scheduler when the token is free (every goroutine is
// blocked or in uncontrolled code): timers may be due, polled objects may
// have changed, or the execution may be over.
//
//go:norace
func kick(e *execution) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.over || e.aborting || e.cur.Load() != nil || e.idle.waiting.Load() != 0 {
		return
	}
	e.handOff(nil)
}
