package runtime

import (
	"reflect"
	"runtime/debug"
	"testing"
	"time"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// runTest runs the test function body as the test goroutine (logical id 0)
// of the execution, in the goroutine of the schedule's subtest t.
//
//go:norace
func (e *execution) runTest(t *testing.T, body func(*testing.T)) {
	serviceSync()
	e.mu.Lock()
	e.race.reuse()
	m := e.newGoroutine(-1, 0)
	m.goid = goid()
	m.gp = getg()
	e.byGoid.put(m.goid, m)
	e.main = m
	e.cur.Store(m)
	e.mu.Unlock()
	shadowing = e.set.races != racesOff
	active.Store(e)
	returned := false
	defer func() { e.finishMain(recover(), returned) }()
	startCleanups(t)
	defer runCleanups(t) // before the leak check; see cleanup.go
	// The parallel subtests run when the body has returned, before the
	// cleanups (parallel.go); not after a panic (a t.FailNow or SkipNow
	// leaves t failed or skipped).
	defer func() { e.subtests.releaseParallel(&e.mu, t, returned || t.Failed() || t.Skipped()) }()
	callTest(body, t)
	returned = true
}

// finishMain ends the test goroutine's part of the execution. Unless a bug
// already ended it, the other goroutines run until nothing can move; those
// left blocked are leaked. Then everything left is torn down.
//
//go:norace
func (e *execution) finishMain(r any, returned bool) {
	var stack []byte
	if r != nil {
		stack = debug.Stack()
	}
	m := e.main
	e.mu.Lock()
	if e.abandoned {
		// The schedule's subtest gave up on this goroutine, stuck in
		// uncontrolled code, and tore the execution down; it came back
		// after all. Whatever it did since (a t.Log on a finished test
		// panics) is dropped.
		e.mu.Unlock()
		return
	}
	switch {
	case r != nil:
		if e.set.detailed {
			e.stepLog.exited(m, true, len(e.trail), e.gs)
		}
		e.abortLocked(m, e.oracle.panicked(m, m == e.main, r, stack))
	case e.aborting:
	default:
		// returned, or t.FailNow/SkipNow: let the others run to the end,
		// for the grace period (time.go).
		e.mainDone = true
		e.clock.returned, e.clock.returnedAt = true, e.clock.now
		e.ev.addExtra(strategies.OpWrite, unsafe.Pointer(&testObj))
		e.setState(m, gDone)
		if e.set.detailed {
			e.stepLog.exited(m, false, len(e.trail), e.gs)
		}
		e.handOff(m)
		e.mu.Unlock()
		raceDisable()
		<-m.wake
		raceEnable()
		tsanResume(m)
		e.mu.Lock()
		if e.bug == nil && returned {
			if leaked := e.oracle.leaked(e.gs, e.clock.heap, &e.models.chans, &e.models, &e.models.contexts); len(leaked) > 0 {
				e.bug = e.oracle.leak(leaked)
			}
		}
	}
	e.bug = e.race.atEnd(e.bug, e.t, e.log)
	if eu, ok := e.strat.(strategies.EventUser); ok {
		// Every execution's gaps, events or not: a portfolio weighs a
		// member's proof by what all its executions depended on.
		end := strategies.End{Unseen: e.fair.since > 0, Uncontrolled: e.uncontrolled, EarlyTimers: e.record.earlyWithheld, Values: e.in.drew.Load() != 0, Cut: e.cut}
		if e.ev.on {
			end.Last = strategies.Event{Acc: e.ev.extra}
		}
		e.strategyEnd(eu, end)
	}
	e.teardown()
	e.race.recycle()
	e.mu.Unlock()
	// Executions run one after the other: for Go's race detector too,
	// everything this one's goroutines did happens before the next.
	goRaceAcquire(unsafe.Pointer(&e.tsanEnd))
	serviceSync()
	if active.CompareAndSwap(e, nil) {
		shadowing = false
	}
	if e.bug != nil && !e.bug.reported {
		e.bug.reported = true
		if !e.set.quiet {
			e.t.Errorf("%s", e.bug.report())
		}
	}
}

// abortWait bounds how long teardown waits for aborted goroutines to exit
// (they may be stuck in uncontrolled code in a deferred call).
const abortWait = time.Second

// teardown ends every goroutine the execution still has: its own exit
// (runtime.Goexit, running their deferred calls), adopted ones go on
// uncontrolled. Lock held.
//
//go:norace
func (e *execution) teardown() {
	e.aborting = true
	e.allExited = make(chan struct{})
	for _, g := range e.gs {
		if g == e.main {
			continue
		}
		if g.runParent != nil && g.state != gDone {
			// A subtest of this execution's: it stops at its next
			// hook, or when released below.
			addZombie(g.goid, zombiePark)
		}
		switch g.state {
		case gBlocked, gRunnable:
			k := wakeAbort
			if g.adopted {
				k = wakeRelease
			} else {
				g.aborted = true
				e.waitAbort++
			}
			raceDisable()
			select {
			case g.wake <- k:
			default: // it holds an undelivered wake: it will see aborting
			}
			raceEnable()
		case gDetached:
			if !g.adopted {
				addZombie(g.goid, zombieExit)
			}
		}
	}
	if e.waitAbort > 0 {
		e.mu.Unlock()
		select {
		case <-e.allExited:
		case <-time.After(abortWait):
		}
		e.mu.Lock()
	}
	for _, g := range e.gs {
		if g.aborted && g.state != gDone {
			addZombie(g.goid, zombieExit)
		}
	}
	for _, id := range e.lateSubtests {
		addZombie(id, zombiePark)
	}
	e.over = true
}

// abandonLocked gives up on the test goroutine, in uncontrolled code: the
// schedule's subtest stops waiting for it (explore.go). Lock held.
//
//go:norace
func (e *execution) abandonLocked() {
	if !e.abandoned {
		e.abandoned = true
		close(e.abandon)
	}
}

// abandonMain ends the execution without its test goroutine, which is
// stuck in uncontrolled code: it is left there, as a zombie that exits at
// its next hook, and the rest is torn down. It runs in the schedule's
// subtest goroutine.
//
//go:norace
func (e *execution) abandonMain() {
	if mainAbandoned != nil {
		mainAbandoned()
	}
	e.mu.Lock()
	addZombie(e.main.goid, zombieExit)
	if e.bug == nil {
		e.bug = stuckBug(e.gs, snapshot(liveGoroutines(e.gs)), e.set.stuckAfter)
	}
	e.teardown()
	e.mu.Unlock()
	goRaceAcquire(unsafe.Pointer(&e.tsanEnd))
	active.CompareAndSwap(e, nil)
	if !e.bug.reported {
		e.bug.reported = true
		e.t.Errorf("%s", e.bug.report())
	}
}

// mainAbandoned, when set (tests), is told of each test goroutine
// abandonMain gives up on.
var mainAbandoned func()

// The oracles' and the testing integration's moves of the token: they
// change goroutines' states, the token and the detached count, the core's,
// and ask the parts (oracle, subtests) what they know. They stay here as
// orchestration.

// blockOnLock blocks me, about to wait for the lock w (what describes
// it), unless that closes a cycle of lock waits: then the execution ends
// with the partial deadlock. The result is block's. Lock held on entry.
//
//go:norace
func (e *execution) blockOnLock(me *goroutine, w lockWait, what string) bool {
	me.lockWait = w
	if c := findLockCycle(me); c != nil {
		me.waitObj = what
		if e.set.detailed {
			e.stepLog.blocked(me, what, len(e.trail), e.gs)
		}
		e.setState(me, gBlocked)
		e.abortLocked(me, e.oracle.lockCycle(c))
		if me == e.main {
			e.mu.Unlock()
			return e.die(me)
		}
		e.mu.Unlock()
		return e.park(me)
	}
	ok := e.block(me, what)
	if ok {
		me.lockWait = lockWait{}
	}
	return ok
}

// adoptedExit ends an adopted goroutine whose end we can see (a subtest
// started through Run).
//
//go:norace
func (e *execution) adoptedExit(g *goroutine) {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := g.runParent
	if e.over {
		if p != nil {
			e.subtests.endRunWait(p, &e.ndetached)
		}
		return
	}
	holder := e.cur.Load() == g
	e.setState(g, gDone)
	if p != nil && p.runReserved && p.state == gBlocked && holder && !e.aborting {
		// The token waits for the parent's return from t.Run.
		e.cur.Store(p)
		return
	}
	if p != nil {
		// The parent returns from t.Run in uncontrolled code now: count
		// it as detached again before anyone decides that nothing can
		// move.
		e.giveUpReservation(p)
		e.subtests.endRunWait(p, &e.ndetached)
	}
	if holder && !e.aborting {
		// Its parent waits for it in uncontrolled code (testing's
		// t.Run): waiting here for the parent would wait for ever.
		e.passOn(g)
	}
}

// returnFromRun resumes me, back from t.Run, with the token its subtest
// left it; false if the reservation was given up, and me must come back
// as from uncontrolled code.
//
//go:norace
func (e *execution) returnFromRun(me *goroutine) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.subtests.arrived(me) // the subtest may never have started
	if !me.runReserved {
		e.subtests.endRunWait(me, &e.ndetached)
		return false
	}
	if e.over || e.aborting || e.cur.Load() != me {
		e.giveUpReservation(me)
		e.subtests.endRunWait(me, &e.ndetached)
		return false
	}
	me.runReserved = false
	me.inRun = false
	me.waitObj = ""
	e.setRunnable(me)
	// Its next steps follow everything its subtest did, or did before
	// t.Parallel (testing's channels order them). For dpor, the
	// subtest's last step (the one running now) and me's next step both
	// write an object of their own, so the second comes after the first
	// and commutes with everything else; for the detector, an edge from
	// the subtest, whose later steps (a parallel one's) are in a new
	// epoch.
	if c := me.runChild; c != nil {
		me.runChild = nil
		e.ev.addExtra(strategies.OpWrite, unsafe.Pointer(c))
		me.runJoin = unsafe.Pointer(c)
		e.race.fork(c, me)
	}
	return true
}

// giveUpReservation turns p, blocked in t.Run with the token kept for it,
// into a goroutine in uncontrolled code that comes back when t.Run
// returns: its subtest ended without the token (in uncontrolled code), or
// testing took longer than reservedFor. Lock held.
//
//go:norace
func (e *execution) giveUpReservation(p *goroutine) {
	if !p.runReserved {
		return
	}
	p.runReserved = false
	p.waitObj = ""
	e.setState(p, gDetached)
	if p.runPending {
		// Its subtest has yet to arrive: p cannot come back before the
		// subtest ends, and is not counted (inRun).
		e.ndetached--
	} else {
		p.inRun = false // its subtest ended: back when t.Run returns
	}
	if e.cur.Load() == p && !e.aborting && !e.over {
		e.passOn(p)
	}
}

// releaseStaleReservation is the watchdog's, when the token has not moved
// for reservedFor: if it waits for testing, it waits no more.
//
//go:norace
func (e *execution) releaseStaleReservation(p *goroutine, progress int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cur.Load() == p && e.progress.Load() == progress && p.runReserved && p.state == gBlocked {
		e.giveUpReservation(p)
	}
}

// passOn passes the token on without waiting: to a runnable goroutine, or
// nobody. Lock held.
//
//go:norace
func (e *execution) passOn(me *goroutine) {
	if next := e.choose(me, false); next != nil {
		e.give(next)
	} else {
		e.cur.Store(nil)
	}
}

// The wait for uncontrolled code, and the program's inputs, where they
// meet the core: these methods take or hand on the token, change
// goroutines' states, or tell the trail's state signature what the
// program drew, so they orchestrate the parts (idle.go, watchdog.go,
// inputs.go) and stay here.

// waitExternal decides whether the execution waits for uncontrolled code;
// if so it becomes idle (the watchdog waits) and waitExternal returns
// true. Lock held.
//
//go:norace
func (e *execution) waitExternal() bool {
	if e.ndetached == 0 && e.eagerPollers == 0 && e.subtests.pending == 0 {
		return false
	}
	if e.mainDone && len(blockedGoroutines(e.gs, false)) == 0 && workingDetached(e.gs) == nil {
		// Nothing left that uncontrolled code could unblock, and no
		// goroutine of the test is still at work there (one that comes
		// back may yet block for ever: a leak).
		return false
	}
	now := time.Now()
	if e.idle.since.IsZero() {
		e.idle.since = now
	}
	// How long the execution may stay idle (idle.go).
	limit := e.set.stuckAfter
	switch {
	case e.subtests.pending > 0:
		limit = e.set.stuckAfter // a subtest on its way
	case e.ndetached > 0 && e.clock.next(e) != nil && workingDetached(e.gs) != nil:
		limit = timerWait(e.clock.next(e), e.clock.now, &e.set)
	case e.ndetached == 0 || e.clock.next(e) != nil:
		limit = e.set.pollGrace
	case e.mainDone || ownDetached(e.gs) == nil:
		limit = e.set.detachedGrace
	}
	if now.Sub(e.idle.since) >= limit {
		return false
	}
	e.idle.until = e.idle.since.Add(limit)
	e.cur.Store(nil)
	e.idle.waiting.Store(1)
	return true
}

// idleWait is the watchdog's wait while the execution is idle (idle.go).
//
//go:norace
func (e *execution) idleWait() {
	e.mu.Lock()
	if e.idle.waiting.Load() == 0 || e.over || e.aborting || e.cur.Load() != nil {
		e.idle.waiting.Store(0)
		e.mu.Unlock()
		return
	}
	if time.Now().After(e.idle.until) {
		e.idle.end()
		e.handOff(nil)
		e.mu.Unlock()
		return
	}
	reapDetached(e.gs, e.ndetached, e)
	// The select: comeback, the timer, then every watched operation.
	cases, owners := e.idle.collect(e.gs)
	d := e.idle.nap(e.ndetached, len(owners))
	t := time.NewTimer(d)
	cases[1].Chan = reflect.ValueOf(t.C)
	e.idle.selecting = true
	e.mu.Unlock()

	i, v, ok, panicked := idleSelect(cases)
	t.Stop()

	e.mu.Lock()
	defer e.mu.Unlock()
	e.idle.selecting = false
	e.idle.dropCases()
	if e.over || e.aborting {
		return
	}
	if i >= 2 && !panicked {
		o := owners[i-2]
		o.w.fire(o.index, v, ok)
		e.setRunnable(o.g)
		e.fedByUncontrolled(o.g)
		e.lastProgress = e.steps
	}
	e.idle.dropOwners()
	if i == 1 && e.cur.Load() == nil && e.idle.waiting.Load() != 0 &&
		e.idle.quietDeadlock(e.gs, e.mainDone, e.clock.pending(), e.eagerPollers, e.set.quietAfter) {
		e.idle.waiting.Store(0)
		e.abortLocked(nil, e.oracle.deadlock(e.gs))
		return
	}
	if e.cur.Load() != nil || e.idle.waiting.Load() == 0 {
		return // a goroutine came back and took the token
	}
	e.idle.waiting.Store(0)
	if i != 1 {
		e.idle.since, e.idle.step = time.Time{}, 0 // something happened
	}
	e.handOff(nil)
}

// detachStuckLocked detaches g, which holds the token and is blocked in
// uncontrolled code (or has exited there), if others wait for the token
// or long is set (watchdog.go). The lock has the last word: g may be
// waiting for the lock itself, not for uncontrolled code. Lock held.
//
//go:norace
func (e *execution) detachStuckLocked(g *goroutine, progress int64, long bool) bool {
	// Others wait: a runnable goroutine (one back from uncontrolled code
	// included), a pending timer, a goroutine waiting on a channel that
	// uncontrolled code may feed.
	if e.mu.contended() || !long && !(len(e.runnable) > 1 || e.eagerPollers > 0 || e.clock.pending()) {
		return false
	}
	st, why := g.doing()
	if st != runBlocked && st != runGone && st != runSyscall {
		return false
	}
	return e.detachLocked(g, progress, why)
}

// detachLocked detaches g if it still holds the token at progress
// (watchdog.go). Lock held.
//
//go:norace
func (e *execution) detachLocked(g *goroutine, progress int64, why string) bool {
	if e.over || e.aborting || e.cur.Load() != g || e.progress.Load() != progress || g.state != gRunnable {
		return false
	}
	if st, _ := g.doing(); st == runGone {
		// It went back to uncontrolled code and ended there (an adopted
		// goroutine: ours end through exit).
		e.setState(g, gDone)
	} else {
		e.record.leftAt(g, e.clock.now)
		e.setState(g, gDetached)
		g.detachedWhy = why
	}
	e.detaches++
	if why == "computing" {
		e.timedDetaches++
	}
	e.cur.Store(nil)
	e.handOff(g)
	return true
}

// noteDrawn notes that the program read a value of source c that no
// decision chose: one of the execution's random source, a large map's
// order, the clock, or one of Go's own with the control off. A systematic
// search does not vary it (a stateless one draws the same in every
// execution), so its end is no proof (strategies.End.Values).
//
//go:norace
func (e *execution) noteDrawn(c control) {
	if e.ev.states {
		e.ev.learnt(e.cur.Load(), e.in.drawnState(c, e.clock.now, e.set.free))
	}
	e.in.markDrawn(c)
}

// noteUncontrolled marks the execution as depending on something the
// runtime does not control, and notes what. Lock held.
//
//go:norace
func (e *execution) noteUncontrolled(kind, what, pos string) {
	e.uncontrolled = true
	e.in.observeAt(len(e.trail), kind, what, pos, 0, false)
}

// The methods below were the object models' (models.go) and stay with the
// core because they are scheduling, or orchestrate parts the models must
// not reach themselves.

// unready blocks again a waiter that was made runnable but has not run:
// the object it waits for was taken by another goroutine first. Lock held.
//
//go:norace
func (e *execution) unready(g *goroutine, what string) {
	if g.state == gRunnable && e.cur.Load() != g {
		e.setState(g, gBlocked)
	}
	g.waitObj = what
}

// fatal reports a Go fatal error, such as "sync: unlock of unlocked mutex".
// Go cannot recover from one and kills the process; gosct records it as a
// bug of kind panic, ends the execution and the calling goroutine, and
// goes on with the next schedule. An adopted goroutine returns (it must
// then skip its operation). Lock held; released. It orchestrates the
// oracles (the bug) and the scheduler (the end of the execution).
//
//go:norace
func (e *execution) fatal(me *goroutine, msg string) {
	stack := debug.Stack()
	e.abortLocked(me, fatalBug(me, me == e.main, "fatal error: "+msg, stack))
	e.mu.Unlock()
	e.die(me)
}

// poller retries the operation of a goroutine blocked on an object that
// uncontrolled code may change: poll, without blocking, reporting whether
// it completed; watch gives it as cases of the watchdog's idle select
// (idle.go). A channel operation's state and its poller are one object
// (sendOp, recvOp), made once per blocking operation.
type poller interface {
	poll() bool
	watch() *watch
}

// funcPoller is a poller of two functions (select.go).
type funcPoller struct {
	p func() bool
	w func() *watch
}

//go:norace
func (f *funcPoller) poll() bool { return f.p() }

//go:norace
func (f *funcPoller) watch() *watch { return f.w() }

// blockPoll blocks me with a poller; eager when uncontrolled code may
// change the object. Lock held; see block. It is the scheduler's: the
// poll and the watch are how the core and the wait for uncontrolled code
// (idle.go) retry a channel operation of the models.
//
//go:norace
func (e *execution) blockPoll(me *goroutine, what string, p poller, eager bool) bool {
	me.poll = p
	if eager && !raceEnabled && p != nil {
		// Under -race the watchdog's real operation would be a
		// goroutine of its own touching the waiter's value: the idle
		// wait polls instead (idle.go).
		me.watching = true
	}
	if eager && !me.eager {
		me.eager = true
		e.eagerPollers++
	}
	return e.block(me, what)
}

// edge records a happens-before edge of a sync operation on the object at
// p (acquire, release or releaseMerge), for Go's race detector (-race),
// for gosct's own (detector.go) and for the trail's step (noteObj). Called
// by the goroutine that synchronizes. It orchestrates: the models ask for
// it through their scheduler, the hooks directly.
//
//go:norace
func (e *execution) edge(k edgeKind, p unsafe.Pointer) {
	e.stepLog.noteObj(e.cur.Load(), p, len(e.trail))
	switch k {
	case acquireEdge:
		goRaceAcquire(p)
		e.race.acquire(e.cur.Load(), p)
	case releaseEdge:
		goRaceRelease(p)
		e.race.release(e.cur.Load(), p)
	case releaseMergeEdge:
		goRaceReleaseMerge(p)
		e.race.release(e.cur.Load(), p)
	}
}
