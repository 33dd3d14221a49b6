package wire

import "time"

// The stopping rules of a test function's exploration, in one place: the
// runtime applies them between the schedules it runs in one process, the
// command between the processes it chains (--per-process).

// Reasons an exploration stopped before its limits, in the Message of a
// "test" event. Such a test was not explored (OutcomeNotExplored).
const (
	// StopInterrupted: ^C, or the command cancelling the run.
	StopInterrupted = "interrupted"
	// StopSkipped: the test called t.Skip.
	StopSkipped = "skipped"
	// StopTooLong: an execution exceeded the step limit (--max-steps)
	// while still changing shared state.
	StopTooLong = "too long"
	// StopStuck: goroutines of the test stayed blocked in uncontrolled
	// code past --uncontrolled-wait; an "error" event says where.
	StopStuck = "could not complete"
	// StopOutOfTime: the budget ran out before the first execution
	// ended (in its middle, where it was stopped, or before it began):
	// no schedule was explored.
	StopOutOfTime = "out of time"
)

// MinRunShare is the least of a run budget a test function gets, however
// little is left: enough for a few schedules, where most bugs show.
const MinRunShare = 200 * time.Millisecond

// RunShare is a test function's share of a run budget (Config.RunBudgetNS):
// what is left, divided equally among the tests left, itself included.
func RunShare(left time.Duration, tests int) time.Duration {
	share := left / time.Duration(max(tests, 1))
	return max(share, MinRunShare)
}

// Limits are what a run allows one test function's exploration.
type Limits struct {
	// Schedules is the most schedules of this run (a resumed search
	// counts from where it resumed).
	Schedules int
	// Budget is the wall-clock time of this run; 0 means none.
	Budget time.Duration
	// KeepGoing goes on after the first bug.
	KeepGoing bool
}

// Progress is how far an exploration got in this run.
type Progress struct {
	Schedules int
	Elapsed   time.Duration
	// Bugs counts the distinct bugs this run reported: a bug that a
	// resumed search had found before is not reported again, and does not
	// stop it.
	Bugs int
	// Exhausted: the strategy has nothing left to explore.
	Exhausted bool
	// Stopped is the reason of an early stop (StopInterrupted...), if any.
	Stopped string
	// Saturated: the saturation rule stopped the test (Saturation).
	Saturated bool
}

// Done reports whether the exploration stops: an early stop, the strategy
// exhausted, the coverage saturated, the first bug (unless KeepGoing), the
// schedules or the budget used up.
func (l Limits) Done(p Progress) bool {
	return p.Stopped != "" || p.Exhausted || p.Saturated || p.Bugs > 0 && !l.KeepGoing ||
		p.Schedules >= l.Schedules || l.Budget > 0 && p.Elapsed >= l.Budget
}

// Outcomes of a test function's exploration (Event.Outcome).
const (
	// OutcomeOK: explored to its limits (or exhausted, or until its
	// coverage saturated: Event.Saturated), no bug.
	OutcomeOK = "ok"
	// OutcomeBug: at least one bug.
	OutcomeBug = "bug"
	// OutcomeNotExplored: stopped before its limits without a bug
	// (Message says why): its schedules say nothing of the test, and it
	// never counts as passed.
	OutcomeNotExplored = "not explored"
)

// Outcome is the outcome of the exploration a "test" event reports.
func (e *Event) Outcome() string {
	switch {
	case e.Bugs > 0:
		return OutcomeBug
	case e.Message != "":
		return OutcomeNotExplored
	}
	return OutcomeOK
}
