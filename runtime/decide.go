package runtime

import "github.com/gosct/gosct/strategies"

// The decision funnel: every decision of an execution (which goroutine
// steps, which select case fires, which value a small random draw takes,
// which of the timers due together fires first) is asked of the strategy,
// clamped and appended to the trail here, and nowhere else. The callers
// describe the point first (e.pt.Choices, and the kind's own Ops, Events,
// Last and State), then record what the choice did (the step log, what a
// goroutine learnt).

// timerOp names, in a detailed trail, the timer chosen to fire first among
// those due together. The strategy is not shown it (Point.Ops stays nil at
// a timer decision, so that a replay never compares it with a recorded
// operation): decide takes it as the operation to record instead.
//
//go:norace
func timerOp(i int) strategies.Op { return strategies.Op{Name: "timer " + itoa(i)} }

// decide asks the decision of kind whose choices e.pt.Choices holds (never
// empty), reached by the goroutine of id cur (strategies.Clock for a
// timer; -1 for the watchdog's goroutine decisions), which yielded if
// yield. It returns the index of the choice taken, and appends it to the
// trail. op, when not nil, is the operation the detailed trail records for
// the choice taken instead of e.pt.Ops's (timerOp). Lock held.
//
// The kinds differ where a strategy or the schedule depends on it:
//   - Events and Last describe a goroutine point; at the other kinds they
//     are cleared, so that a strategy never sees the previous goroutine
//     point's there (no strategy reads them at those kinds);
//   - Where (Locating) is set at goroutine points only;
//   - once the execution went fair (fair.go), a goroutine decision is the
//     fair choice's, unless the strategy follows a recorded schedule; a
//     case, value or timer decision is still asked of the strategy;
//   - the enabled goroutines are recorded for goroutine decisions only.
//
//go:norace
func (e *execution) decide(kind strategies.Kind, cur int, yield bool, op func(int) strategies.Op) int {
	e.pt.Kind = kind
	e.pt.Current = cur
	e.pt.Yield = yield
	e.pt.Where = nil
	if kind == strategies.Goroutine {
		if e.locate {
			e.pt.Where = &e.loc
		}
	} else if e.ev.on {
		e.pt.Events, e.pt.Last = e.pt.Events[:0], strategies.Event{}
	}
	var i int
	if kind != strategies.Goroutine || e.fair.since == 0 || following(e.strat) {
		i = e.strategyNext()
	} else {
		i = e.fair.choice(len(e.pt.Choices))
	}
	if i < 0 || i >= len(e.pt.Choices) {
		i = 0
	}
	e.trail = append(e.trail, decision{kind, int32(e.pt.Choices[i]), int32(cur), strategies.Preempts(&e.pt, i)})
	if e.set.detailed {
		var o strategies.Op
		if op != nil {
			o = op(i)
		} else {
			o = e.pt.Ops[i]
		}
		var enabled []int
		if kind == strategies.Goroutine {
			enabled = e.pt.Choices
		}
		e.stepLog.decided(o, enabled, len(e.trail))
	}
	return i
}
