package runtime

import (
	"testing"
	"time"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// Subtests. testing runs a subtest's function in a goroutine of its own,
// which t.Run starts and waits for; the subtest's goroutine joins the
// execution at its first hook, and its parent comes back when t.Run
// returns. Both moves happen in testing's code, which the scheduler does
// not see, and take real time: had the parent let the token go to other
// goroutines meanwhile, where the subtest's first step or the parent's
// return fell among their steps would depend on the machine, and every
// table-driven test would be an exploration that may not replay and
// that dpor cannot call complete.
//
// So the token waits for them. The parent keeps it while in t.Run,
// blocked (waiting for its subtest, which a deadlock report says), until
// the subtest's goroutine arrives and takes it (subtestArrives); when the
// subtest ends (adoptedExit) it goes back to the parent, which resumes as
// t.Run returns. Goroutines that come back from uncontrolled code
// meanwhile wait for their turn as they do while any goroutine holds the
// token. A parallel subtest hands the token to its parent as its t.Run
// returns (parallel.go). Where testing does not move as expected (the
// subtest never arrives, the parent does not come back: reservedFor
// bounds the wait), the reservation is given up and the parent is a
// goroutine in uncontrolled code like any other.

// reservedFor bounds how long the token waits for testing to start a
// subtest or to return from t.Run: microseconds as a rule.
const reservedFor = 2 * time.Second

// Run replaces t.Run in instrumented code.
//
//go:norace
func Run(t *testing.T, name string, f func(*testing.T)) bool {
	e, me := enter()
	if e == nil {
		return t.Run(name, f)
	}
	e.mu.Lock()
	e.reserveForSubtest(me, name)
	e.mu.Unlock()
	parent := t
	ok := t.Run(name, func(t *testing.T) {
		e2, child := e.subtestArrives(me)
		if e2 == e && child != nil {
			child.parent = me.id
			child.runParent = me
			child.runT = parent
			child.subtest = userTestName(t.Name())
			defer e.adoptedExit(child)
			defer parallelDone(child) // after its cleanups, as testing signals the parent
			// The subtest's cleanups run here, controlled, after its
			// parallel subtests (the deferred releaseParallel below):
			// testing would run them after this function returns, in
			// this goroutine, once the scheduler had counted it as ended
			// (a cleanup closing what a goroutine of the subtest waits on
			// was then a false deadlock). See cleanup.go.
			startCleanups(t)
			defer runCleanups(t)
		}
		e.mu.Lock()
		e.endRunPending(me)
		e.mu.Unlock()
		ended := false
		defer func() { e.releaseParallel(t, ended || t.Failed() || t.Skipped()) }()
		callTest(f, t)
		ended = true
	})
	if e.returnFromRun(me) {
		return ok
	}
	e.rejoin(me)
	e.mu.Lock()
	e.hbJoinAll(me)
	e.mu.Unlock()
	return ok
}

// reserveForSubtest blocks me, the token holder, in t.Run, the token
// staying with it until its subtest arrives. Lock held.
//
//go:norace
func (e *execution) reserveForSubtest(me *goroutine, name string) {
	me.op = opRun
	me.waitObj = "subtest " + name
	if e.set.detailed {
		e.stepBlocked(me, me.waitObj)
	}
	e.setState(me, gBlocked)
	me.inRun = true
	me.runReserved = true
	me.runPending = true
	e.runPending++
}

// subtestArrives joins the goroutine of parent's subtest to the execution,
// with the token parent kept for it.
//
//go:norace
func (e *execution) subtestArrives(parent *goroutine) (*execution, *goroutine) {
	e.mu.Lock()
	if e.over || e.aborting || !parent.runReserved || !parent.runPending || e.cur.Load() != parent {
		// The reservation was given up: join as any goroutine started
		// by uncontrolled code.
		e.mu.Unlock()
		return enter()
	}
	g := e.newGoroutine(parent.id, 0)
	g.adopted = true // testing's: released, not killed, when the execution ends
	g.goid = goid()
	g.gp = getg()
	e.byGoid.put(g.goid, g)
	e.hbFork(parent, g)
	parent.runChild = g
	e.endRunPending(parent)
	e.cur.Store(g)
	e.mu.Unlock()
	return e, g
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
			e.endRunWait(p)
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
		e.endRunWait(p)
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
	e.endRunPending(me) // the subtest may never have started
	if !me.runReserved {
		e.endRunWait(me)
		return false
	}
	if e.over || e.aborting || e.cur.Load() != me {
		e.giveUpReservation(me)
		e.endRunWait(me)
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
		e.addExtra(strategies.OpWrite, unsafe.Pointer(c))
		me.runJoin = unsafe.Pointer(c)
		e.hbFork(c, me)
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

// rejoin takes me back under control, back from t.Run after its
// reservation was given up; it returns when me holds the token again.
//
//go:norace
func (e *execution) rejoin(me *goroutine) {
	if e2, _ := e.foreign(me.goid); e2 == nil && !me.adopted && me != e.main {
		goexit()
	}
}

// endRunWait counts g, back from waiting for a subtest, as detached again.
// Lock held.
//
//go:norace
func (e *execution) endRunWait(g *goroutine) {
	if g.inRun {
		g.inRun = false
		e.ndetached++
	}
}

// endRunPending notes that the subtest g started has arrived (or will
// not). Lock held.
//
//go:norace
func (e *execution) endRunPending(g *goroutine) {
	if g.runPending {
		g.runPending = false
		e.runPending--
	}
}
