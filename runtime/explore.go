package runtime

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
)

// explorer runs one test function under many schedules.
type explorer struct {
	t     *testing.T
	c     *wire.Config
	strat strategies.Strategy
	// warnedHB: the warning that the detector stopped was emitted.
	warnedHB bool
	set      settings
	start    time.Time
	// deadline stops exploring before go test's -timeout would kill the
	// process.
	deadline  time.Time
	schedules int
	bugs      int
	seen      map[string]bool
	// seenBefore are the bugs earlier processes reported (the state
	// file's), until this one meets one again.
	seenBefore map[string]bool
	exhausted  bool
	// replayer and trace0 are set in replay mode.
	replayer *replay.Replayer
	trace0   *replay.Trace
	// prevTrail and prevCharges are the last execution's that was not a
	// replay, for the next one's charges (charge.go).
	prevTrail   []decision
	prevCharges []charge

	// statePath is the file of the saved search (Config.State), "" when
	// the search is not saved; resumed and bugsBefore are the schedules and
	// bugs of the runs before this one (schedules counts them too, so
	// that numbering continues).
	statePath  string
	resumed    int
	bugsBefore int
	lastSave   time.Time
	saveFailed bool
	// uncontrolled counts the schedules that depended on uncontrolled
	// code, uncReplayed those of them that replayed (Config.CheckReplay).
	uncontrolled, uncReplayed int
	// timedDetaches sums the executions' (tests look at it).
	timedDetaches int
	// stopped says why the exploration stopped before its limits
	// (wire.StopInterrupted...), in the test event: the command stops a
	// per-process exploration there too.
	stopped string
	// nondet counts the schedules the determinism check found to differ
	// (it stops checking after the first).
	nondet int
	// gaps are what the schedules depended on that no decision chose
	// (proof.go).
	gaps proofGaps

	filesOnce sync.Once
	fileHash  map[string]string

	// In a part of a sharded search (wire.Config.Shards, shard.go): a
	// ranged part runs schedules offset+1..offset+rangeLen, numbered as in
	// the whole search; sharder is the strategy of a divided tree, which
	// says whether an execution was this part's, and probes counts those
	// that were not.
	ranged   bool
	offset   int
	rangeLen int
	sharder  strategies.Sharder
	probes   int

	// cov records what the schedules reached (Config.Coverage);
	// covering is set while the exploration's own execution runs (not
	// the re-runs of a schedule: a check, a trace's detailed run).
	cov      *coverage
	covering bool
	// sat is the saturation rule's state (Config.Saturate), nil when
	// off; saturated is the schedule of its last discovery when it
	// stopped the test.
	sat       *wire.Saturation
	saturated int

	// shared is the subtest the exploration's schedules run in while they
	// pass (sharing.go), nil when none is open; shareNext says that
	// the next runOnce may join it.
	shared    *sharedSubtest
	shareNext bool
}

// runStart is when this binary's first exploration started, and
// runTestsStarted how many it has started: what the binary's tests have
// taken of a run budget (wire.Config.RunBudgetNS).
var (
	runStart        time.Time
	runTestsStarted int
)

//go:norace
func newExplorer(t *testing.T, c *wire.Config) (*explorer, error) {
	x := &explorer{t: t, c: c, set: defaultSettings, start: time.Now(), seen: map[string]bool{}, seenBefore: map[string]bool{}}
	testedPkg = c.Package
	if c.MaxSteps > 0 {
		x.set.maxSteps = c.MaxSteps
	}
	if c.UncontrolledWaitNS > 0 {
		x.set.stuckAfter = time.Duration(c.UncontrolledWaitNS)
	}
	x.set.races, x.set.accessPoints = parseRaces(c.Races)
	free, err := parseControls(c.Free)
	if err != nil {
		return nil, err
	}
	x.set.free = free
	if err := x.set.parseTime(c.TimerEarly, c.LeakGrace, c.StepCost); err != nil {
		return nil, err
	}
	if c.Mode == "replay" {
		tr, err := replay.Read(c.Trace)
		if err != nil {
			return nil, err
		}
		x.trace0 = tr
		if tr.Inputs != nil {
			// Controls the recorded run had off stay off.
			free, err := parseControls(tr.Inputs.Free)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", c.Trace, err)
			}
			x.set.free |= free
		}
		if r, ok := tr.Params["races"].(string); ok && c.Races == "" {
			x.set.races, x.set.accessPoints = parseRaces(r) // as recorded
		}
		// The time model as recorded, unless the command line says
		// otherwise.
		early, grace, step := c.TimerEarly, c.LeakGrace, c.StepCost
		if v, ok := tr.Params["timer_early"].(string); ok && early == "" {
			early = v
		}
		if v, ok := tr.Params["leak_grace"].(string); ok && grace == "" {
			grace = v
		}
		if v, ok := tr.Params["step_cost"].(string); ok && c.StepCost == "" {
			step = v
		}
		if err := x.set.parseTime(early, grace, step); err != nil {
			return nil, fmt.Errorf("trace %s: %v", c.Trace, err)
		}
		x.replayer = replay.NewReplayer(tr)
		x.replayer.Continue = c.Continue
		x.strat = x.replayer
		x.set.detailed = true
	} else {
		if c.Strategy == "" {
			c.Strategy = strategies.DefaultStrategy // named in events and traces
		}
		s, err := strategies.New(c.Strategy, strategies.Options{Seed: c.Seed, Bound: c.Bound, Depth: c.Depth, Guide: c.Guide, States: c.States, Fragments: c.Fragments, DFSRB: c.DFSRB, Walk: c.Walk})
		if err != nil {
			return nil, err
		}
		x.strat = s
		if c.Sharded() {
			if err := x.shard(); err != nil {
				x.emit(&wire.Event{Event: "error", Message: err.Error()})
				return nil, err
			}
		}
		if c.State != "" {
			if err := x.loadState(); err != nil {
				x.emit(&wire.Event{Event: "error", Message: err.Error()})
				return nil, err
			}
		}
		if c.PerProcess || c.CheckDeterminism {
			// One execution per process: record its details now, as
			// a re-run in this process (whose package state it has
			// changed) could not repeat it. The determinism check
			// compares two detailed runs.
			x.set.detailed = true
		}
	}
	if c.Saturate && c.Mode != "replay" && !c.Sharded() && !c.PerProcess && c.State == "" {
		// Not in a part of a divided search, whose range is the whole
		// search's, nor in a saved search, whose coverage is not saved.
		x.sat = &wire.Saturation{}
	}
	if (c.Coverage || x.sat != nil) && c.Mode != "replay" {
		x.cov = &coverage{}
	}
	if c.BudgetNS > 0 {
		x.deadline = x.start.Add(time.Duration(c.BudgetNS))
	}
	if c.RunBudgetNS > 0 && c.Mode != "replay" {
		// The run's budget is shared among the tests left; those before
		// this one in this binary spent what they took of it.
		if runStart.IsZero() {
			runStart = x.start
		}
		share := wire.RunShare(time.Duration(c.RunBudgetNS)-x.start.Sub(runStart), c.RunTests-runTestsStarted)
		runTestsStarted++
		if dd := x.start.Add(share); x.deadline.IsZero() || dd.Before(x.deadline) {
			x.deadline = dd
		}
	}
	if d, ok := t.Deadline(); ok {
		// Leave a tenth of the time, at least a few seconds, to report.
		margin := time.Until(d) / 10
		if margin < 3*time.Second {
			margin = 3 * time.Second
		}
		if dd := d.Add(-margin); x.deadline.IsZero() || dd.Before(x.deadline) {
			x.deadline = dd
		}
	}
	return x, nil
}

// limits are the run's stopping rules (wire.Limits): the schedules, the
// budget cut to end before go test's -timeout, the first bug.
//
//go:norace
func (x *explorer) limits() wire.Limits {
	l := wire.Limits{Schedules: x.c.Schedules, KeepGoing: x.c.KeepGoing}
	if l.Schedules <= 0 {
		l.Schedules = strategies.DefaultSchedules
	}
	if x.ranged {
		// A part of a range runs what is left of its range.
		l.Schedules = min(l.Schedules, max(x.rangeLen-x.resumed, 0))
	}
	if !x.deadline.IsZero() {
		l.Budget = max(x.deadline.Sub(x.start), 1)
	}
	return l
}

// progress is how far the exploration got in this run.
//
//go:norace
func (x *explorer) progress() wire.Progress {
	p := wire.Progress{Schedules: x.schedules - x.resumed, Elapsed: time.Since(x.start), Bugs: x.bugs,
		Exhausted: x.exhausted, Stopped: x.stopped}
	p.Saturated = x.sat != nil && x.sat.Saturated(p.Schedules)
	return p
}

// explore runs the schedules until the stopping rules say so.
//
//go:norace
func (x *explorer) explore(body func(*testing.T)) {
	startWatchdog()
	if x.statePath != "" {
		watchInterrupt()
		x.lastSave = time.Now()
	}
	lastProgress := time.Now()
	lim := x.limits()
	defer x.endShared()
	for !lim.Done(x.progress()) {
		if now := time.Now(); now.Sub(lastProgress) > 500*time.Millisecond {
			lastProgress = now
			x.emit(&wire.Event{Event: "progress", Schedules: x.schedules - x.resumed, Resumed: x.resumed, Bugs: x.bugs, ElapsedS: now.Sub(x.start).Seconds()})
		}
		if x.statePath != "" && interrupted.Load() {
			x.stopped = wire.StopInterrupted
			break
		}
		if x.saveDue() {
			x.saveState(false)
		}
		if !x.strat.NewExecution() {
			x.exhausted = true
			break
		}
		x.schedules++
		if x.c.PerProcess {
			// Should this schedule kill the process (os.Exit, a fatal
			// error of Go's), the next process goes on past it
			// instead of running it again.
			x.saveState(true)
		}
		// With --coverage every schedule records it, for the rule
		// alone one in wire.SamplePeriod.
		x.covering = x.cov != nil && (x.c.Coverage || wire.Sampled(x.schedules))
		sampled := x.covering
		set := x.set
		if x.schedules-1 == x.resumed {
			// Only the first schedule is stopped in its middle when the
			// budget runs out (then the test is "not explored"): a real
			// suite's execution stopped there leaves its subtests and
			// the goroutines testing started half done, and they can
			// fail the test binary outside any schedule (conc's
			// TestResultContextPool, TestForEachIdx). Later ones end,
			// as before --run-budget; a minimization's are stopped.
			set.stopAt = x.deadline
		}
		x.shareNext = x.sharing()
		e, skipped := x.runOnce("schedule_"+itoa(x.number()), x.strat, set, x.inputs(), body)
		x.shareNext = false
		x.covering = false
		if e.overtime {
			// The budget ran out in the middle of this schedule: it
			// was not explored, and does not count.
			x.schedules--
			if x.schedules == x.resumed {
				x.stopped = wire.StopOutOfTime
			}
			break
		}
		if e.race.stopped && !x.warnedHB {
			x.warnedHB = true
			x.emit(&wire.Event{Event: "warning", Schedule: x.number(), Message: fmt.Sprintf(
				"%s: an execution created more than %d goroutines: race detection stopped there for the rest of it (races after that point are not checked)", x.t.Name(), maxRaceGoroutines)})
		}
		if e.tooLong {
			x.emit(&wire.Event{Event: "warning", Schedule: x.number(), Message: fmt.Sprintf(
				"%s: an execution exceeded %d scheduling steps while still changing shared state: too long to explore; stopped, not explored (raise --max-steps)", x.t.Name(), x.set.maxSteps)})
			x.stopped = wire.StopTooLong
			break
		}
		if skipped {
			x.stopped = wire.StopSkipped
			break
		}
		if x.sharder != nil && !x.sharder.Owned() {
			// Another part's schedule, run to learn the tree: it
			// reports it.
			x.schedules--
			x.probes++
			continue
		}
		if sampled {
			fresh, newSet := x.cov.commit() // this part's schedule: it counts
			if x.sat != nil && wire.Sampled(x.schedules) {
				if newSet {
					fresh++
				}
				x.sat.Observe(x.schedules, fresh)
			}
		}
		x.gaps.note(e)
		if x.replayer != nil {
			if d := x.replayer.Finish(); d != nil && e.bug == nil {
				d.Cause = x.divergenceCause(d.Step, e)
				x.emit(&wire.Event{Event: "diverged", Schedule: x.number(), Trace: x.c.Trace, Message: d.Error(), Source: d.Cause.Kind})
			}
		}
		x.timedDetaches += e.timedDetaches
		if e.uncontrolled && e.bug == nil {
			x.uncontrolled++
			if x.c.CheckReplay && x.replays(e, body) {
				x.uncReplayed++
			}
		}
		if e.bug != nil && e.bug.kind == kindStuck {
			// Not a bug: gosct cannot tell whether the uncontrolled code
			// would have moved. An error of the test, whose exploration
			// stops (its next schedules would likely wait as long).
			x.emit(&wire.Event{Event: "error", Schedule: x.number(), Message: kindStuck + ": " + e.bug.message, Report: e.bug.report(), Key: e.bug.key, Pos: e.bug.where()})
			x.stopped = wire.StopStuck
			break
		}
		// The determinism check runs every schedule again until it
		// finds one that differs, which it reports; the exploration
		// goes on, looking for bugs, without checking the rest.
		var checked *execution
		same := true
		if x.c.CheckDeterminism && x.replayer == nil && x.nondet == 0 {
			checked, same = x.checkDeterminism(e, body)
		}
		if e.bug != nil {
			x.found(e, body, checked, same)
		}
	}
	if x.schedules == x.resumed && x.stopped == "" && !x.exhausted && lim.Schedules > 0 {
		// The budget ran out before the first schedule began (a share
		// of the run's budget on a loaded machine, whose set-up took
		// it): nothing was explored, which must not read as passed.
		x.stopped = wire.StopOutOfTime
	}
	if p := x.progress(); p.Saturated {
		// The rule stopped the test if nothing else would have.
		if p.Saturated = false; !lim.Done(p) {
			x.saturated = max(x.sat.Last, 1)
		}
	}
	x.finish()
}

// inputs are the next execution's: recorded ones in replay mode, fresh
// ones otherwise.
//
//go:norace
func (x *explorer) inputs() inputs {
	if x.trace0 != nil && x.trace0.Inputs != nil {
		return inputsOf(x.trace0.Inputs)
	}
	st, ok := x.strat.(strategies.Stateless)
	// The schedule's number in the whole search: a part of a divided
	// search draws the inputs one process would.
	in := freshInputs(x.c.Seed, x.number(), ok && st.Stateless(), time.Now())
	if x.shared != nil {
		// The shared subtest's goroutine and the one waiting in its
		// t.Run (sharing.go) are not there for a subtest of its own.
		in.goroutines -= 2
	}
	return in
}

// runOnce runs one execution in a subtest; skipped reports t.Skip.
//
//go:norace
func (x *explorer) runOnce(name string, s strategies.Strategy, set settings, in inputs, body func(*testing.T)) (e *execution, skipped bool) {
	e = newExecution(s, set, nil)
	e.in.set(in, e.set.free, &e.clock)
	if x.covering {
		x.cov.begin()
		e.race.cov = x.cov
	}
	var output string
	known := false
	r, replaying := s.(*replay.Replayer)
	if replaying {
		// A replay moves the clock by the recorded charges of real
		// time, and measures none (charge.go).
		e.record.replayCharges = recordedCharges(r.Trace())
	} else {
		// Where this execution's decisions are the last one's, so are
		// its charges (charge.go).
		e.record.prevTrail, e.record.prevCharges = x.prevTrail, x.prevCharges
		// The trail grows to about the last one's length: one
		// allocation, not one per doubling.
		e.trail = make([]decision, 0, len(x.prevTrail)+len(x.prevTrail)/8)
		defer func() { x.prevTrail, x.prevCharges = e.trail, e.record.charges }()
	}
	run := func(t *testing.T) {
		growStack()
		e.t = t
		e.log = captureLog(t)
		defer e.log.stop()
		defer func() { skipped = t.Skipped() }()
		// The test goroutine of the execution is a goroutine of its own,
		// so that the subtest can end even if it stays stuck in
		// uncontrolled code (abandonMain). t.FailNow and t.SkipNow in it
		// end it as they would end the subtest's goroutine.
		done := make(chan struct{})
		e.host = goid()
		startGoroutine(e, func() bool {
			defer close(done)
			// Abandoned, it is a zombie until it ends (spawn.go).
			defer dropZombie(goid())
			e.runTest(t, body)
			return !e.main.lockedThread
		})
		select {
		case <-done:
		case <-e.abandon:
			e.abandonMain()
		}
		if e.bug == nil && t.Failed() {
			output, known = e.log.text()
		}
	}
	var ok bool
	if x.shareNext {
		ok = x.runShared(name, run, e)
	} else {
		// Another subtest (a check, a replay, a shrinking run) runs
		// after the shared one, not beside it.
		x.endShared()
		ok = x.t.Run(name, run)
	}
	if e.bug == nil && !ok {
		e.bug = failureBug(e.oracle.failedAt(), output, known)
	}
	return e, skipped
}

//go:norace
func (x *explorer) finish() {
	x.endShared()
	st := ""
	if s, ok := x.strat.(strategies.Status); ok {
		st = s.Status()
		x.exhausted = x.exhausted || s.Exhausted()
	}
	st, unproved, notProof := x.verdict(st)
	x.saveState(false)
	if x.cov != nil && x.c.Coverage {
		x.emit(&wire.Event{Event: "coverage", Coverage: x.cov.report()})
	}
	x.emit(&wire.Event{
		Event:     "test",
		Schedules: x.schedules - x.resumed,
		Resumed:   x.resumed,
		Bugs:      x.bugs,
		ElapsedS:  time.Since(x.start).Seconds(),
		Exhausted: x.exhausted,
		Status:    st,
		Unproved:  unproved,
		NotProof:  notProof,
		Message:   x.stopped,
		Probes:    x.probes,
		Saturated: x.saturated,

		Uncontrolled:         x.uncontrolled,
		UncontrolledReplayed: x.uncReplayed,
	})
}

// replays runs e's schedule again, as the determinism check does
// (check.go), and reports whether it took the same decisions and ended
// the same way.
//
//go:norace
func (x *explorer) replays(e *execution, body func(*testing.T)) bool {
	rs := replay.NewReplayer(x.trace(e, e))
	re, _ := x.runOnce("schedule_"+itoa(x.number())+"_check", rs, x.set, e.in.inputs, body)
	return rs.Finish() == nil && outcome(re) == outcome(e)
}

//go:norace
func (x *explorer) emit(ev *wire.Event) {
	ev.Package = x.c.Package
	ev.Test = x.t.Name()
	if ev.Strategy == "" {
		ev.Strategy = x.c.Strategy
	}
	if x.c.Results == "" {
		return
	}
	if err := wire.Append(x.c.Results, ev); err != nil {
		fmt.Fprintf(os.Stderr, "gosct: writing results: %v\n", err)
	}
}

// parseTime sets the time model's knobs from their command-line form;
// "" keeps the default.
//
//go:norace
func (s *settings) parseTime(early, grace, step string) error {
	for _, f := range []struct {
		name string
		v    string
		dst  *time.Duration
	}{{"timer_early", early, &s.timerEarly}, {"leak_grace", grace, &s.leakGrace}, {"step_cost", step, &s.stepCost}} {
		if f.v == "" {
			continue
		}
		if f.name == "step_cost" {
			// A uniform cost per step, or Go's costs (costs.go).
			s.uniformCost = f.v != calibratedCost
			if !s.uniformCost {
				continue
			}
		}
		d, err := time.ParseDuration(f.v)
		if err != nil || d < 0 {
			return fmt.Errorf("bad %s %q: want a duration such as 1ms", f.name, f.v)
		}
		*f.dst = d
	}
	return nil
}
