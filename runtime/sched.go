package runtime

import (
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// active is the execution in progress in this process, or nil. Hooks called
// while it is nil pass through.
var active executionPtr

// decision is one entry of an execution's trail: what a strategy chose.
type decision struct {
	kind   strategies.Kind
	choice int32 // goroutine id or case index
	cur    int32 // goroutine that reached the point
	// preempt: the choice switched away from cur while cur could go on
	// (strategies.Preempts).
	preempt bool
}

// settings are the knobs of an execution that do not change between
// executions of a test.
type settings struct {
	maxSteps int
	// Strategies such as PCT and DFS starve a spinning goroutine's
	// partner for ever, which is not a bug of the program. So once a
	// runnable goroutine has not been chosen for fairAfter steps, or no
	// step has changed shared state for fairAfter steps, the rest of the
	// execution is decided by a fair random choice instead of the
	// strategy (fair.go). Until then the strategy decides, however long
	// the execution: bugs late in long tests stay within its reach. An
	// execution that, once fair, goes livelockWindow steps without a step
	// that changes shared state is a livelock; one that reaches maxSteps
	// while still changing state is only too long to explore.
	fairAfter, livelockWindow int
	// detailed executions record the source position of every operation:
	// replays, and the re-run of a buggy schedule that writes its trace.
	detailed bool
	// detachAfter is how long the token holder may compute without
	// reaching a scheduling point before the watchdog detaches it;
	// syscallAfter, how long it may stay in a system call; blockedAlone,
	// how long it may stay blocked in uncontrolled code when nothing else
	// could use the token (watchdog.go). Blocked with others waiting, it
	// is detached at once.
	detachAfter, syscallAfter, blockedAlone time.Duration
	// The bounds of waiting for uncontrolled code (idle.go): pollGrace
	// for channels of uncontrolled code (or before a pending timer
	// fires), detachedGrace for goroutines started by uncontrolled code
	// (or after the test returned), quietAfter before a deadlock when the
	// whole process is blocked, stuckAfter before "could not complete".
	pollGrace, detachedGrace, quietAfter, stuckAfter time.Duration
	// accessPoints makes shared-memory accesses (Load, Store, Read, Write)
	// scheduling points; off, they only feed the race detector (memory.go).
	accessPoints bool
	// races is the race detector's mode (detector.go).
	races raceMode
	// quiet executions (the minimizer's candidates, minimize.go) keep
	// their bug to themselves: their subtest does not fail for it.
	quiet bool
	// free are the controls of sources of nondeterminism turned off
	// (inputs.go): those sources behave as in Go, for testing the
	// determinism check.
	free control
	// Time (time.go). timerEarly is how far ahead of the work done a
	// timer may fire at the strategy's choice (0: only when every
	// goroutine is blocked or spinning); stepCost is the virtual time a
	// scheduling step, or a read of the clock, takes; leakGrace is how long
	// the goroutines left behind by a test go on, timers firing, before
	// the leak check.
	timerEarly, stepCost, leakGrace time.Duration
	// stopAt, when set, stops an execution still running at that
	// moment (overtime): a budget or a minimization's time is a promise,
	// however long the program's executions.
	stopAt time.Time
	// uniformCost charges stepCost for every step and read of the clock,
	// and no timer latency, instead of Go's costs (costs.go).
	uniformCost bool
	// noStallCharge turns off the watchdog's charge of the holder's real
	// computing time (charge.go), for the runtime's own tests of the
	// virtual model, which a loaded machine must not disturb.
	noStallCharge bool
}

var defaultSettings = settings{
	maxSteps:       1_000_000,
	fairAfter:      20_000,
	livelockWindow: 50_000,
	detachAfter:    100 * time.Millisecond * raceSlowdown,
	syscallAfter:   time.Millisecond * raceSlowdown,
	blockedAlone:   10 * time.Millisecond * raceSlowdown,
	pollGrace:      30 * time.Millisecond,
	detachedGrace:  2 * time.Second,
	quietAfter:     time.Second,
	stuckAfter:     10 * time.Second,
	accessPoints:   true,
	timerEarly:     DefaultTimerEarly,
	stepCost:       DefaultStepCost,
	leakGrace:      DefaultLeakGrace,
}

// The defaults of the time model (docs/runtime.md, "Time"), measured on the
// corpus and on .ci/realsuites (docs/limitations.md).
const (
	// DefaultTimerEarly: a timer due within 1 ms of the work done may fire
	// at any scheduling point, at the strategy's choice.
	DefaultTimerEarly = time.Millisecond
	// DefaultStepCost: under a uniform cost (a trace written before the
	// calibrated costs of costs.go, gosct-bench --step-cost), a scheduling
	// step takes 10 ns of virtual time.
	DefaultStepCost = 10 * time.Nanosecond
	// DefaultLeakGrace: goroutines left behind by a test go on for ten
	// minutes of virtual time (go test's default -timeout: no test process
	// lives longer) before the leak check.
	DefaultLeakGrace = 10 * time.Minute
)

// execution is one controlled run of a test function under one schedule.
type execution struct {
	mu    rtMutex   // invisible to Go's race detector, as cur and progress (tsan_on.go)
	own   ownAllocs // the runtime's own allocations, once the program reads them (memstats.go)
	set   settings
	strat strategies.Strategy
	t     *testing.T
	// seq numbers the executions of the process: a worker goroutine
	// (pool.go) is never reused within one.
	seq uint64
	// host is the goroutine of the schedule's subtest, which started the
	// test goroutine (Stack).
	host int64

	// locate records goroutines' stacks for a strategy that steers by
	// them (locate.go); loc answers its questions.
	locate bool
	loc    locator

	gs       []*goroutine
	byGoid   rmap[int64, *goroutine]
	runnable []*goroutine // ordered by id; see choose
	cur      goroutinePtr
	main     *goroutine

	steps        int
	lastProgress int // the last step that changed shared state
	// fair is the fair tail of the execution, once started (fair.go).
	fair     fairness
	tooLong  bool // stopped at settings.maxSteps, not a bug
	overtime bool // stopped at settings.stopAt, not a bug
	// record is the clock's record: the charges of real time spent in
	// uncontrolled code, the timers fired early (charge.go, timing.go).
	record clockRecord
	// cut: a bug ended the execution in a goroutine's step (abortLocked).
	cut     bool
	trail   []decision
	stepLog stepLog // detailed mode: the operation of each decision, what each goroutine did (steps.go)
	pt      strategies.Point

	// in are the execution's inputs: its random source's seed, its
	// clock's epoch, its goroutine count, the source drawn from and the
	// source log (inputs.go).
	in programInputs

	bug *bug
	// log is what the schedule's subtest writes through t (testoutput.go).
	log      *testLog
	mainDone bool
	aborting bool
	over     bool
	// uncontrolled is set when the schedule depended on something outside
	// the runtime's control: it may not replay exactly.
	uncontrolled bool
	ndetached    int
	eagerPollers int
	detaches     int // times a goroutine was detached
	// timedDetaches counts those detached by timeout (computing, or a
	// state the runtime cannot read), not because they were blocked.
	timedDetaches int
	// idle is the wait for uncontrolled code (idle.go).
	idle idleState
	// abandon is closed when the test goroutine, in uncontrolled code,
	// is given up on (explore.go); abortedAt is when the execution was
	// aborted while it was there (unix ns), for the watchdog.
	abandon   chan struct{}
	abandoned bool
	abortedAt rtCounter
	waitAbort int // goroutines told to abort whose exit is awaited
	allExited chan struct{}

	progress rtCounter // bumped at every decision, for the watchdog

	// tsanEnd is where the execution's goroutines release their clocks
	// for Go's race detector when they exit (finishMain).
	tsanEnd uint8

	// ev records the events (and states) the strategy asked for
	// (events.go, states.go).
	ev eventLog

	// models are the channels', sync objects' and contexts' (models.go).
	models models
	clock  clock
	// race is the race detector, and the coverage of conflicting pairs
	// (detector.go).
	race detector

	// oracle tells the bug of the execution, and names the call that
	// failed the test (bug.go, where.go).
	oracle oracle
	// subtests are the subtests on their way and the parallel ones
	// (subtests.go, parallel.go).
	subtests subtests
	// lateSubtests are the goroutines of subtests testing started while
	// the execution was being aborted: leftovers once it is over.
	lateSubtests []int64
}

//go:norace
func newExecution(strat strategies.Strategy, set settings, t *testing.T) *execution {
	e := &execution{
		seq:     nextExecSeq(),
		set:     set,
		strat:   strat,
		t:       t,
		abandon: make(chan struct{}),
	}
	e.idle.comeback = make(chan struct{}, 1)
	e.in.detailed = set.detailed
	fpCalibrate() // for Go's position of the go statement, and for locate
	if l, ok := strat.(strategies.Locating); ok {
		e.locate = l.Locates()
	}
	e.loc.gs = &e.gs
	e.mu.own = &e.own
	e.stepLog.on = set.detailed
	e.clock.init()
	e.models.init()
	e.race.init(set.races, trailSteps{&e.stepLog, &e.trail}, &e.over, &e.models.contexts)
	if eu, ok := strat.(strategies.EventUser); ok {
		w := eu.Wants()
		e.ev.on = w&(strategies.WantEvents|strategies.WantStates) != 0
		e.ev.states = w&strategies.WantStates != 0
	}
	return e
}

// enter identifies the calling goroutine. It returns nil, nil when the call
// must pass through: no execution is active, or it is over.
//
//go:norace
func enter() (*execution, *goroutine) {
	e := active.Load()
	if e == nil {
		if nzombies.Load() != 0 {
			if k := zombieOf(goid()); k != notZombie {
				stopZombie(k)
			}
		}
		return nil, nil
	}
	id := goid()
	if me := e.cur.Load(); me != nil && me.goid == id {
		return e, me
	}
	return e.foreign(id)
}

// foreign handles a hook called by a goroutine that does not hold the token:
// one coming back from uncontrolled code, one started by uncontrolled code
// (adopted), or one left over from an earlier execution.
//
//go:norace
func (e *execution) foreign(id int64) (*execution, *goroutine) {
	if k := zombieOf(id); k != notZombie {
		stopZombie(k)
	}
	e.mu.Lock()
	if e.over {
		e.mu.Unlock()
		return nil, nil
	}
	g := e.byGoid.get(id)
	if g == nil {
		if e.aborting || inBubble() {
			// A goroutine of a testing/synctest bubble runs as go test
			// runs it (bubble.go).
			e.mu.Unlock()
			return nil, nil
		}
		g = e.newGoroutine(-1, 0)
		g.adopted = true
		g.goid = id
		g.gp = getg()
		e.byGoid.put(id, g)
		e.uncontrolled = true
		if e.set.detailed {
			what := "a goroutine started by uncontrolled code joined as G" + itoa(g.id)
			if e.subtests.pending > 0 {
				// Most likely the subtest t.Run waits for: testing
				// starts it when it will, other goroutines running.
				what = "a goroutine started by testing (a subtest of t.Run) joined as G" + itoa(g.id)
			}
			e.noteUncontrolled("uncontrolled code", what, callerPos())
		}
	} else if g.state == gDetached {
		e.record.cameBack(g, e.clock.now)
		e.setRunnable(g)
		// It waited in uncontrolled code, for what the detector cannot
		// see (a response over a socket a handler wrote, a library's
		// lock or channel): Go's own detector orders every I/O read
		// after every write (internal/poll's ioSync), so assume it
		// synchronized with everything so far rather than report a
		// false race.
		e.race.joinAll(g)
	}
	if e.aborting {
		e.mu.Unlock()
		if !e.die(g) {
			return nil, nil
		}
	}
	if h := e.cur.Load(); h != nil && h != g {
		// The holder may be blocked in uncontrolled code, waiting for
		// what g is about to do (a server's handler, a library's
		// callback): know it now rather than after the watchdog's next
		// look.
		e.detachStuckLocked(h, e.progress.Load(), false)
	}
	if e.cur.Load() == nil {
		if e.idle.selecting {
			// The watchdog is in its idle select: it alone may complete
			// operations now. It takes g from here.
			select {
			case e.idle.comeback <- struct{}{}:
			default:
			}
		} else {
			e.idle.waiting.Store(0)
			e.cur.Store(g)
			e.idle.since = time.Time{}
			e.ev.addExtra(strategies.OpGlobal, unsafe.Pointer(&testObj))
			e.mu.Unlock()
			return e, g
		}
	}
	e.mu.Unlock()
	if !e.park(g) {
		return nil, nil
	}
	return e, g
}

// newGoroutine registers a goroutine, runnable. Lock held.
//
//go:norace
func (e *execution) newGoroutine(parent int, pc uintptr) *goroutine {
	g := &goroutine{id: len(e.gs), e: e, parent: parent, created: pc, op: opStart, wake: make(chan wakeKind, 1)}
	if e.locate {
		g.at = new(stackPos)
	}
	e.gs = append(e.gs, g)
	if len(e.gs) > maxRaceGoroutines && !e.race.stopped && e.set.races != racesOff {
		e.race.stopped = true
	}
	e.setRunnable(g)
	return g
}

// setRunnable and setState keep e.runnable, the goroutines a decision can
// choose, in step with their states, so a decision costs O(runnable), not
// O(goroutines). Lock held.
//
//go:norace
func (e *execution) setRunnable(g *goroutine) {
	g.poll, g.watching = nil, false
	if g.eager {
		g.eager = false
		e.eagerPollers--
	}
	i := e.runnableIndex(g.id)
	if i < len(e.runnable) && e.runnable[i] == g {
		g.state = gRunnable
		return
	}
	if g.state == gDetached {
		e.ndetached--
	}
	g.state = gRunnable
	g.chosenAt = e.steps // it waits for a turn from now on
	e.runnable = insertAt(e.runnable, i, g)
}

// runnableIndex is where id is, or would be, in e.runnable.
//
//go:norace
func (e *execution) runnableIndex(id int) int {
	lo, hi := 0, len(e.runnable)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if e.runnable[m].id < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

//go:norace
func (e *execution) setState(g *goroutine, s gstate) {
	if g.state == gRunnable {
		if i := e.runnableIndex(g.id); i < len(e.runnable) && e.runnable[i] == g {
			e.runnable = deleteAt(e.runnable, i)
		}
	}
	if g.state == gDetached {
		e.ndetached--
	}
	if s == gDetached {
		e.ndetached++
		e.uncontrolled = true
		if e.set.detailed {
			e.noteUncontrolled("uncontrolled code", "G"+itoa(g.id)+" ran in uncontrolled code after "+g.op.String(), g.where)
		}
		e.ev.addExtra(strategies.OpGlobal, unsafe.Pointer(&testObj))
	}
	g.state = s
}

// ready makes a blocked goroutine runnable: the event it waited for has
// happened. Lock held.
//
//go:norace
func (e *execution) ready(g *goroutine) {
	if g.state == gBlocked {
		e.setRunnable(g)
		e.lastProgress = e.steps
	}
}

// yield is the scheduling point before an operation of me: the strategy
// chooses who takes the next step. It returns false when me must perform
// its operation uncontrolled (the execution ended under an adopted
// goroutine).
//
//go:norace
func (e *execution) yield(me *goroutine, op opKind) bool {
	me.op = op
	if e.ev.states {
		me.stack = stackHash()
	}
	if e.set.detailed {
		e.own.begin()
		where(me)
		e.own.end()
	}
	var pcs covPCs
	if e.race.cov != nil {
		pcs.capture()
	}
	if e.locate {
		me.at.record()
	}
	e.mu.Lock()
	if e.aborting {
		e.mu.Unlock()
		return e.die(me)
	}
	if e.race.cov != nil {
		e.race.cov.reach(me, op, &pcs)
	}
	if e.cur.Load() != me {
		// The watchdog detached me after enter and before the lock
		// (a slow callerPos, a loaded machine, -race): the token went
		// on without me, and choosing now would park me for ever. Come
		// back as any detached goroutine does.
		e.mu.Unlock()
		e2, _ := e.foreign(me.goid)
		return e2 != nil
	}
	next := e.choose(me, op == opYield)
	if next == me {
		e.mu.Unlock()
		return true
	}
	if e.aborting { // the step bound was exceeded
		e.mu.Unlock()
		return e.die(me)
	}
	if next != nil {
		tsanPark(me) // before the next goroutine can run: see park
		e.give(next)
	}
	e.mu.Unlock()
	return e.park(me)
}

// block parks me until another goroutine (or the clock) readies it. The
// caller holds the lock, has recorded what me waits for, and re-checks
// its condition when block returns true. False: perform the operation
// uncontrolled.
//
//go:norace
func (e *execution) block(me *goroutine, what string) bool {
	if e.race.cov != nil && me.op == opSleep {
		// A sleep blocks without a scheduling point before.
		var pcs covPCs
		pcs.capture()
		e.race.cov.reach(me, me.op, &pcs)
	}
	me.waitObj = what
	if e.set.detailed {
		e.stepLog.blocked(me, what, len(e.trail), e.gs)
	}
	e.setState(me, gBlocked)
	tsanPark(me) // before the next goroutine can run: see park
	e.handOff(me)
	if e.aborting && me == e.main {
		// The execution ended (me blocked last: a deadlock), and
		// abortLocked left it to me to notice.
		e.mu.Unlock()
		return e.die(me)
	}
	e.mu.Unlock()
	return e.park(me)
}

// park waits for the token. For Go's race detector, me publishes its
// clock (tsanPark) before the token leaves it, since whoever takes it may
// complete me's operation and acquire that clock at once; again here, for
// the paths that park without handing the token on.
//
//go:norace
func (e *execution) park(me *goroutine) bool {
	tsanPark(me)
	raceDisable()
	k := <-me.wake
	raceEnable()
	tsanResume(me)
	switch k {
	case wakeRun, wakeEnd:
		return true
	case wakeRelease:
		if zombieOf(me.goid) == zombiePark {
			parkLeftover()
		}
		return false
	}
	return e.die(me)
}

// give hands the token to next. Lock held.
//
//go:norace
func (e *execution) give(next *goroutine) {
	e.cur.Store(next)
	raceDisable()
	next.wake <- wakeRun
	raceEnable()
}

// die ends me because the execution is being torn down: the test goroutine
// fails its test, goroutines of the execution exit, adopted goroutines go
// on uncontrolled (it returns false for them).
//
//go:norace
func (e *execution) die(me *goroutine) bool {
	if me.adopted {
		return false
	}
	if me == e.main && !e.mainDone {
		e.failMain()
	}
	goexit()
	return false
}

// choose asks the strategy which runnable goroutine takes the next step.
// It returns nil when none can, or when the step bound is exceeded (then
// e.aborting is set). Each decision is a step of work for the clock, and
// may be the strategy's choice of strategies.Clock: a timer fires, and
// another decision follows. Lock held.
//
//go:norace
func (e *execution) choose(me *goroutine, yielded bool) *goroutine {
	e.pollEager()
	for {
		if len(e.runnable) == 0 {
			return nil
		}
		e.steps++
		e.record.chargeStall(e.trail, &e.clock)
		e.clock.work(e)
		n := len(e.runnable)
		starved := false
		ch := e.pt.Choices[:0]
		for _, g := range e.runnable {
			ch = append(ch, g.id)
			starved = starved || e.steps-g.chosenAt > e.set.fairAfter
		}
		early := e.clock.early(e)
		if early != nil && e.locate {
			// Guided search (positions) has no model of a timer
			// firing at its choice: it explores the synctest rule
			// only. An EventUser (dpor) that is also locating (a
			// portfolio's) is told (End.EarlyTimers), as it would
			// otherwise claim a proof; dpor alone takes the clock
			// as a goroutine of its own, whose steps are global
			// (describeChoices).
			e.record.earlyWithheld = true
			early = nil
		}
		if early != nil {
			ch = append(ch, strategies.Clock)
			if e.clock.offered == 0 {
				e.clock.offered = e.steps
			}
			starved = starved || e.steps-e.clock.offered > e.set.fairAfter
		} else {
			e.clock.offered = 0
		}
		e.pt.Choices = ch
		if e.fair.since == 0 && (starved || e.steps-e.lastProgress > e.set.fairAfter) {
			e.fair.start(e.steps, e.trail)
		}
		if e.fair.since > 0 && e.steps-max(e.lastProgress, e.fair.since) > e.set.livelockWindow {
			// The goroutines only spin: for time, as if they were all
			// blocked. A timer they may be waiting for fires; if there
			// is none, it is a livelock.
			if e.clock.spin(e) {
				e.lastProgress = e.steps
				continue
			}
			e.abortLocked(me, e.oracle.livelock(e.gs, e.set.livelockWindow))
			return nil
		}
		if e.steps > e.set.maxSteps {
			e.tooLong = true
			e.abortLocked(me, nil)
			return nil
		}
		if e.steps&1023 == 0 && !e.set.stopAt.IsZero() && time.Now().After(e.set.stopAt) {
			// The time allowed ran out in the middle of an execution
			// (a budget, a minimization): it stops here, not a bug.
			e.overtime = true
			e.abortLocked(me, nil)
			return nil
		}
		cur := -1 // the watchdog's decisions: nobody reached the point
		if me != nil {
			cur = me.id
		}
		if e.ev.on {
			e.ev.describeChoices(&e.pt, e.gs, &e.models)
			e.pt.Last = strategies.Event{Acc: e.ev.extra}
		}
		if e.ev.states {
			e.pt.State = e.ev.signature(e.uncontrolled || e.ndetached > 0 || e.eagerPollers > 0, e.gs, &e.in, &e.clock, objStates{&e.models, e.in.fresh, e.clock.now}, e.mainDone)
		}
		if e.set.detailed {
			e.pt.Ops = e.pt.Ops[:0]
			for _, id := range ch[:n] {
				g := e.gs[id]
				e.pt.Ops = append(e.pt.Ops, strategies.Op{Name: g.op.String(), Pos: g.where})
			}
			if early != nil {
				e.pt.Ops = append(e.pt.Ops, strategies.Op{Name: early.describe()})
			}
		} else {
			e.pt.Ops = nil
		}
		i := e.decide(strategies.Goroutine, cur, yielded, nil)
		e.ev.extra = e.ev.extra[:0]
		id := ch[i]
		if id != strategies.Clock {
			e.gs[id].nsteps++
			e.gs[id].runJoin = nil // its step is taken: subtests.go
		}
		if e.ev.states && i < len(e.pt.Events) {
			if id != strategies.Clock {
				e.ev.observed(e.gs[id], e.pt.Events[i].Acc)
			}
			// The step about to run may change the objects it names.
			e.ev.st.touchAcc(e.pt.Events[i].Acc)
		}
		e.progress.Add(1)
		if !e.idle.since.IsZero() {
			e.idle.since = time.Time{} // a write only when needed: a store of a time is a write barrier in a GC
		}
		if id == strategies.Clock {
			// The clock's step: a timer fires, and the goroutine that
			// reached the point is still there for the next decision.
			e.clock.offered = 0
			if e.ev.states {
				// The clock moved: every timer's remaining time
				// changed, and what fires touches objects no
				// event named.
				e.ev.st.all = true
			}
			e.clock.fireEarly(e, early)
			e.lastProgress = e.steps
			yielded = false
			continue
		}
		if e.gs[id].op.mutates() || e.fair.since > 0 && e.fair.readsNew(e.gs[id]) {
			e.lastProgress = e.steps
		}
		e.gs[id].chosenAt = e.steps
		e.clock.stepped(e, e.gs[id])
		if e.set.detailed {
			e.stepLog.chosen(e.gs[id], len(e.trail), e.gs)
		}
		return e.gs[id]
	}
}

// handOff passes the token on after me stopped being runnable (blocked,
// detached or exited). When nothing can run it fires timers, waits for
// uncontrolled code (idle.go), and finally ends the execution: at the end
// of the test, or with a deadlock or a "could not complete". Lock held.
//
//go:norace
func (e *execution) handOff(me *goroutine) {
	for {
		if next := e.choose(me, false); next != nil {
			e.give(next)
			return
		}
		if e.aborting {
			return
		}
		if e.pollAll() {
			e.ev.addExtra(strategies.OpGlobal, unsafe.Pointer(&testObj))
			continue
		}
		reapDetached(e.gs, e.ndetached, e)
		if e.ndetached == 0 && e.clock.advance(e) {
			e.ev.addExtra(strategies.OpBarrier, nil)
			continue
		}
		if e.waitExternal() {
			return // the watchdog waits for uncontrolled code
		}
		if e.clock.advance(e) {
			e.ev.addExtra(strategies.OpBarrier, nil)
			continue
		}
		e.quiesce(me)
		return
	}
}

// quiesce ends an execution in which nothing can move any more. Lock held.
//
//go:norace
func (e *execution) quiesce(me *goroutine) {
	e.cur.Store(nil)
	if e.mainDone {
		e.cur.Store(e.main)
		raceDisable()
		e.main.wake <- wakeEnd
		raceEnable()
		return
	}
	if own := ownDetached(e.gs); len(own) > 0 {
		// Goroutines of the test stayed in uncontrolled code past the
		// bound (idle.go): the test could not complete.
		e.abortLocked(me, stuckBug(e.gs, snapshot(liveGoroutines(e.gs)), e.set.stuckAfter))
		return
	}
	first := e.bug == nil
	e.abortLocked(me, e.oracle.deadlock(e.gs))
	if first {
		e.cut = false // nothing could run: no step was cut
	}
}

// abortLocked records b and starts tearing the execution down: the test
// goroutine is woken to fail the test. me is the goroutine running this
// code, or nil (the watchdog). Lock held.
//
//go:norace
func (e *execution) abortLocked(me *goroutine, b *bug) {
	if e.bug == nil && b != nil {
		// A bug found in a goroutine's step (a panic, a lock cycle, a
		// race) ends the execution there: the steps that could have
		// come before it are cut (strategies.End.Cut). A deadlock found
		// when nothing can run cuts nothing (quiesce).
		e.cut = me != nil
		e.bug = b
		// The test goroutine reports the bug, built here with
		// instrumented code (strings.Builder): for Go's race detector
		// it must read it after this goroutine wrote it.
		tsanRelay(e.main)
	}
	if e.aborting {
		return
	}
	e.aborting = true
	e.releaseAdopted()
	m := e.main
	if m.state == gDetached || m.inRun {
		// It notices at its next hook. If it stays in uncontrolled code
		// (the bug may be what keeps it there), the schedule's subtest
		// gives up on it (watchdog, abandonMain); at once when it is the
		// verdict. In t.Run it waits for its subtest, which the bug
		// (a deadlock there) may keep from ending.
		e.abortedAt.Store(time.Now().UnixNano())
		if b != nil && (b.kind == kindStuck || b.kind == kindDeadlock) {
			e.abandonLocked()
		}
		return
	}
	if m == me {
		return // it notices when it returns from this hook
	}
	e.cur.Store(m)
	raceDisable()
	if e.mainDone {
		m.wake <- wakeEnd
	} else {
		m.wake <- wakeAbort
	}
	raceEnable()
}

// releaseAdopted lets the goroutines started by uncontrolled code run on
// uncontrolled as soon as the execution is aborted, not at its teardown:
// the test goroutine's deferred calls, which run first, may wait for them
// in uncontrolled code (httptest.Server.Close waits for its handlers).
// Lock held.
//
//go:norace
func (e *execution) releaseAdopted() {
	for _, g := range e.gs {
		if !g.adopted || g == e.cur.Load() || (g.state != gBlocked && g.state != gRunnable) {
			continue
		}
		raceDisable()
		select {
		case g.wake <- wakeRelease:
			e.setState(g, gDetached)
		default: // a wake is pending: it sees aborting at its next hook
		}
		raceEnable()
	}
}

// failMain ends the test goroutine after a bug: the schedule's subtest
// fails with the report.
//
//go:norace
func (e *execution) failMain() {
	e.t.Helper()
	if e.bug == nil && e.overtime {
		e.t.Skipf("gosct: the time allowed ran out in the middle of the execution: stopped, not explored")
	}
	if e.bug == nil {
		e.t.Skipf("gosct: the execution exceeded %d scheduling steps while still changing shared state: too long to explore (raise --max-steps)", e.set.maxSteps)
	}
	if e.set.quiet {
		e.bug.reported = true
		goexit()
	}
	e.t.Errorf("%s", e.bug.report())
	e.bug.reported = true
	e.t.FailNow()
}

// pollEager retries the operations of blocked goroutines whose objects
// uncontrolled code may change at any time. Lock held.
//
//go:norace
func (e *execution) pollEager() {
	if e.eagerPollers != 0 {
		e.wakeEager(true)
	}
}

// wakeEager readies the blocked goroutines whose operation on an object
// uncontrolled code can change now completes; fed notes each as fed by
// uncontrolled code (fedByUncontrolled). Lock held.
//
//go:norace
func (e *execution) wakeEager(fed bool) {
	for _, g := range e.gs {
		if g.state == gBlocked && g.eager && g.poll != nil && g.poll.poll() {
			if fed {
				e.fedByUncontrolled(g)
			}
			e.setRunnable(g)
			e.ev.addExtra(strategies.OpGlobal, unsafe.Pointer(&testObj))
		}
	}
}

// pollAll retries every polled operation; true if one completed. Lock held.
//
//go:norace
func (e *execution) pollAll() bool {
	any := false
	for _, g := range e.gs {
		if g.state == gBlocked && g.poll != nil && g.poll.poll() {
			if g.eager {
				e.fedByUncontrolled(g)
			}
			e.setRunnable(g)
			any = true
		}
	}
	return any
}

// fedByUncontrolled notes, in the source log, that g's operation on an
// object uncontrolled code can change (a channel it made: ctx.Done(), a
// library's channel) completed while g was blocked. When uncontrolled code
// does that by itself (a library's timer, a server), the step at which it
// shows is up to that code, not to the schedule; when a goroutine of the
// execution did it through the library (a context's cancel) it is the
// same in every run. So the execution is not marked uncontrolled for it,
// but a run that diverges from a recorded one names it if it happened at
// another step (replay.SourceCause). Lock held.
//
//go:norace
func (e *execution) fedByUncontrolled(g *goroutine) {
	if e.set.detailed {
		e.in.observeAt(len(e.trail), "uncontrolled channel", g.op.String()+" on a channel of uncontrolled code (G"+itoa(g.id)+")", g.where, 0, false)
	}
}

// access is an access of kind by the token holder to size bytes at p,
// made at site s: the coverage counts it when kind has accCov (a
// scheduling point's access, not a shadow one; without access points,
// only an atomic one), then the detector checks it. It orchestrates, so
// it stays the execution's: it takes the lock, names the token holder,
// and in racesSync ends the execution at its first race. A variable of
// size 0 has no bytes to race on (and may share its address with
// others).
//
//go:norace
func (e *execution) access(p unsafe.Pointer, size uintptr, kind uint8, s *Site) {
	if kind&accCov != 0 {
		kind &^= accCov
		if e.race.cov != nil && p != nil && (kind&accAtomic != 0 || e.set.accessPoints) {
			e.mu.Lock()
			if !e.over && !e.aborting {
				if g := e.cur.Load(); g != nil {
					e.race.cov.touch(g, uintptr(p), kind&accWrite != 0 && g.op != opAtomicLoad)
				}
			}
			e.mu.Unlock()
		}
	}
	if !e.race.on() || p == nil || size == 0 || onOwnStack(p) {
		return
	}
	me := e.cur.Load()
	if me == nil {
		return
	}
	var stk []uintptr
	if e.set.detailed {
		stk = accessStack()
	}
	e.mu.Lock()
	if e.over || e.aborting {
		e.mu.Unlock()
		return
	}
	if found := e.race.check(me, p, size, kind, s, stk); found != nil {
		if e.set.races != racesReport {
			e.abortLocked(me, raceBug(e.gs, me, p, kind, s, found.f[0]))
			e.mu.Unlock()
			e.die(me)
			return
		}
		e.race.record(e.gs, e.main, me, p, kind, s, found)
	}
	e.mu.Unlock()
}

// raceAtomic is the coverage's and the detector's side of an atomic
// operation of kind on addr by the token holder: the atomic access, then
// an acquire and a release (acquire, release: which of them). A sync.Map
// is a synchronization object only (every operation acquires and
// releases it); a sync.Pool is synchronized object by object (PoolPut,
// PoolGot). It orchestrates as access does (the lock, the token holder).
//
//go:norace
func (e *execution) raceAtomic(addr any, kind uint8, acquire, release bool) {
	// Counted whatever addr is; size 0: not checked here.
	e.access(dataPtr(addr), 0, kind|accAtomic|accCov, nil)
	if !e.race.on() {
		return
	}
	switch addr.(type) {
	case *sync.Pool:
		return
	case *sync.Map:
		acquire, release = true, true
	default:
		p, size := addrSize(addr)
		if p == nil {
			return
		}
		e.access(p, size, kind|accAtomic, nil)
	}
	p := dataPtr(addr)
	e.mu.Lock()
	if !e.over {
		g := e.cur.Load()
		if acquire {
			e.race.acquire(g, p)
		}
		switch {
		case release && acquire:
			e.race.release(g, p)
		case release:
			e.race.releaseStore(g, p)
		}
	}
	e.mu.Unlock()
}

// yieldEv is the hooks' entry to yield: it records what the goroutine's
// pending operation touches (evRecord, for the events of events.go) before
// the scheduling point, which only the core can hand on: the object at obj
// (try for an operation that never blocks, TryLock; size for a memory
// access), or the object addr as the hook got it (a pointer, a map, a
// sync.Map, whose size is found only if events are wanted), or a
// select's cases.
//
//go:norace
func (e *execution) yieldEv(me *goroutine, op opKind, ev evRecord) bool {
	me.ev = ev
	return e.yield(me, op)
}
