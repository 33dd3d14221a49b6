package runtime

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// stopExplorer is an explorer of random schedules (seed 1) with c's
// limits, its traces and results in a temporary directory.
func stopExplorer(t *testing.T, c wire.Config) (*explorer, *wire.Config) {
	dir := t.TempDir()
	c.Mode, c.Strategy, c.Seed = "explore", "random", 1
	c.TraceDir, c.Results = filepath.Join(dir, "traces"), filepath.Join(dir, "results.jsonl")
	x, err := newExplorer(t, &c)
	if err != nil {
		t.Fatal(err)
	}
	return x, &c
}

// TestTooLongIsNotExplored: an execution stopped at the step limit while
// it still changes state stops the exploration, and the test is "not
// explored", never passed.
func TestTooLongIsNotExplored(t *testing.T) {
	x, c := stopExplorer(t, wire.Config{Schedules: 50, MaxSteps: 300})
	x.explore(func(t *testing.T) {
		var mu sync.Mutex
		n := 0
		for i := 0; i < 10000; i++ {
			Lock(&mu)
			n++
			Unlock(&mu)
		}
	})
	var test *wire.Event
	warned := false
	for _, e := range readEvents(t, c.Results) {
		switch e.Event {
		case "test":
			test = &e
		case "warning":
			warned = true
		case "bug":
			t.Errorf("bug: %s", e.Message)
		}
	}
	if test == nil || test.Schedules != 1 || test.Message != wire.StopTooLong || test.Outcome() != wire.OutcomeNotExplored || !warned {
		t.Fatalf("test event %+v (warned %v): want one schedule, stopped as too long, not explored", test, warned)
	}
}

// TestOvertimeIsStopped: an execution still running when the time allowed
// runs out (a budget, a minimization) is stopped in the middle, not run to
// its end, and is not a bug.
func TestOvertimeIsStopped(t *testing.T) {
	x, _ := stopExplorer(t, wire.Config{Schedules: 50})
	const n = 100_000
	iterations := 0
	set := x.set
	set.stopAt = time.Now().Add(-time.Second)
	e, _ := x.runOnce("overtime", x.strat, set, x.inputs(), func(t *testing.T) {
		var mu sync.Mutex
		for iterations = 0; iterations < n; iterations++ {
			Lock(&mu)
			Unlock(&mu)
		}
	})
	if !e.overtime || e.bug != nil || iterations >= n {
		t.Fatalf("overtime %v, bug %v, %d of %d iterations: want the execution stopped in the middle, no bug", e.overtime, e.bug, iterations, n)
	}
}

// TestBudgetStopsAnExecution: the budget stops an execution that outlasts
// it; the schedule cut there does not count, and a test none of whose
// schedules ended is "not explored".
func TestBudgetStopsAnExecution(t *testing.T) {
	// No step limit short of the budget: a warm process takes a million
	// steps in a fraction of it.
	x, c := stopExplorer(t, wire.Config{Schedules: 50, BudgetNS: int64(300 * time.Millisecond), MaxSteps: 1 << 40})
	x.explore(func(t *testing.T) {
		// Runs well past the budget unless stopped: 5 s, however fast
		// the machine (a count of iterations ended within the budget
		// once the process was warm).
		var mu sync.Mutex
		begin := time.Now()
		for time.Since(begin) < 5*time.Second {
			Lock(&mu)
			Unlock(&mu)
		}
	})
	test := testEvent(t, readEvents(t, c.Results))
	if test.Schedules != 0 || test.Message != wire.StopOutOfTime || test.Outcome() != wire.OutcomeNotExplored {
		t.Fatalf("test event %+v: want no schedule, stopped out of time, not explored", test)
	}
}

// TestBudgetGoneBeforeFirstSchedule: a budget that runs out before the
// first schedule begins (a loaded machine's set-up can take a test's
// share of the run budget) leaves the test "not explored", never "ok"
// with no schedule.
func TestBudgetGoneBeforeFirstSchedule(t *testing.T) {
	x, c := stopExplorer(t, wire.Config{Schedules: 50, BudgetNS: 1})
	ran := false
	x.explore(func(t *testing.T) { ran = true })
	test := testEvent(t, readEvents(t, c.Results))
	if ran || test.Schedules != 0 || test.Message != wire.StopOutOfTime || test.Outcome() != wire.OutcomeNotExplored {
		t.Fatalf("ran %v, test event %+v: want no schedule, stopped out of time, not explored", ran, test)
	}
}

// TestRunBudgetShare: a test function's budget is its share of what is
// left of the run budget, divided among the tests left.
func TestRunBudgetShare(t *testing.T) {
	defer func(s time.Time, n int) { runStart, runTestsStarted = s, n }(runStart, runTestsStarted)
	runStart, runTestsStarted = time.Time{}, 0
	c := &wire.Config{Mode: "explore", Strategy: "random", Seed: 1, BudgetNS: int64(time.Minute),
		RunBudgetNS: int64(time.Second), RunTests: 4}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	if got := x.deadline.Sub(x.start); got != 250*time.Millisecond {
		t.Errorf("first of 4 tests in a 1s run budget: budget %v, want 250ms", got)
	}
	y, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	if got := y.deadline.Sub(y.start); got > 334*time.Millisecond || got < wire.MinRunShare {
		t.Errorf("second of 4 tests: budget %v, want what is left of 1s over 3", got)
	}
}
