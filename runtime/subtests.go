package runtime

import (
	"fmt"
	"os"
	"testing"
	"time"
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
// the subtest's goroutine arrives and takes it (Run); when the
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
	// me, the token holder, blocks in t.Run, the token staying with it
	// until its subtest arrives.
	me.op = opRun
	me.waitObj = "subtest " + name
	if e.set.detailed {
		e.stepLog.blocked(me, me.waitObj, len(e.trail), e.gs)
	}
	e.setState(me, gBlocked)
	e.subtests.reserve(me)
	e.mu.Unlock()
	parent := t
	ok := t.Run(name, func(t *testing.T) {
		e2, child := e, (*goroutine)(nil)
		defer dropLatePanic(&e2, t)
		e.mu.Lock()
		if e.over || e.aborting || !me.runReserved || !me.runPending || e.cur.Load() != me {
			// The reservation was given up: join as any goroutine
			// started by uncontrolled code.
			over := e.over
			if e.aborting && !over {
				// It runs uncontrolled while the execution ends, as
				// the goroutines released then do (its parent's t.Run
				// waits for it), and stops at its first hook after.
				e.lateSubtests = append(e.lateSubtests, goid())
			}
			e.mu.Unlock()
			if over {
				// testing started it after its execution ended: a
				// leftover (spawn.go's zombiePark), which must not join
				// a later execution nor run beside it.
				parkLeftover()
			}
			e2, child = enter()
			if e2 != nil && e2 != e {
				parkLeftover()
			}
		} else {
			// The subtest's goroutine joins the execution, with the
			// token me kept for it.
			child = e.newGoroutine(me.id, 0)
			child.adopted = true // testing's: released, not killed, when the execution ends
			child.goid = goid()
			child.gp = getg()
			e.byGoid.put(child.goid, child)
			e.race.fork(me, child)
			me.runChild = child
			e.subtests.arrived(me)
			e.cur.Store(child)
			e.mu.Unlock()
		}
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
		e.subtests.arrived(me)
		e.mu.Unlock()
		ended := false
		defer func() { e.subtests.releaseParallel(&e.mu, t, ended) }()
		callTest(f, t)
		ended = true
	})
	if e.returnFromRun(me) {
		return ok
	}
	// Back from t.Run after the reservation was given up: come back under
	// control as from uncontrolled code, holding the token again.
	if e2, _ := e.foreign(me.goid); e2 == nil && !me.adopted && me != e.main {
		goexit()
	}
	e.mu.Lock()
	e.race.joinAll(me)
	e.mu.Unlock()
	return ok
}

// subtests are an execution's subtests in the making: those started by
// t.Run that have not arrived yet, and each test's parallel subtests
// (parallel.go). The goroutines keep where each of them is (inRun,
// runReserved, runPending); the token's moves between a parent and its
// subtest are the core's (Run, and the execution's adoptedExit,
// returnFromRun, giveUpReservation), which use this.
type subtests struct {
	pending int // subtests started by t.Run that have not arrived yet
	// parallel are the parallel subtests of each test, by parent
	// (parallel.go).
	parallel rmap[*testing.T, *parGroup]
}

// reserve notes that me, blocked in t.Run, keeps the token for its
// subtest. Lock held.
//
//go:norace
func (s *subtests) reserve(me *goroutine) {
	me.inRun = true
	me.runReserved = true
	me.runPending = true
	s.pending++
}

// endRunWait counts g, back from waiting for a subtest, as detached again
// (among the detached goroutines). Lock held.
//
//go:norace
func (s *subtests) endRunWait(g *goroutine, detached *int) {
	if g.inRun {
		g.inRun = false
		*detached++
	}
}

// arrived notes that the subtest g started has arrived (or will not).
// Lock held.
//
//go:norace
func (s *subtests) arrived(g *goroutine) {
	if g.runPending {
		g.runPending = false
		s.pending--
	}
}

// dropLatePanic keeps a panic of a subtest whose execution is over from
// ending the process. Such a subtest was left running in uncontrolled code
// when its execution was torn down (abandonMain), and its test, or the
// schedule's subtest above it, has completed since: the first t.Errorf it
// makes panics in testing ("Fail in goroutine after TestX has
// completed"), and a panic in a subtest's goroutine ends the test binary,
// with every test it had not yet run. The execution's verdict was given
// when it ended, so the panic is dropped, as a goroutine started by Go
// drops one (exit), with a line on stderr. The goroutine is then parked
// for good: returning, or runtime.Goexit, would have testing fail the
// completed parent again, which panics again. *ep is the execution the
// subtest belongs to (another than its parent's when it joined the one
// current when it arrived): a panic while that one runs is its to judge.
//
//go:norace
func dropLatePanic(ep **execution, t *testing.T) {
	e := *ep
	if e == nil {
		return // not under gosct's control: as testing does
	}
	e.mu.Lock()
	over := e.over
	e.mu.Unlock()
	if !over {
		return // recover is not called: the panic goes on as it was
	}
	r := recover()
	if r == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "gosct: %s, left running in uncontrolled code by a schedule that has ended, panicked: %v (dropped: that schedule's verdict is given)\n", t.Name(), r)
	if lateDropped != nil {
		lateDropped(r)
	}
	select {}
}

// lateDropped, when set (tests), is told of each panic dropLatePanic drops.
var lateDropped func(any)
