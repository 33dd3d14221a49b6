package runtime

import (
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
)

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
	if kind != strategies.Goroutine || e.fair.since == 0 || e.strategyFollowing() {
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

// chooseCase asks the strategy which of the ready select cases fires.
// Lock held.
//
//go:norace
func (e *execution) chooseCase(me *goroutine, ready []int) int {
	if len(ready) == 1 {
		return ready[0]
	}
	e.pt.Choices = e.pt.Choices[:0]
	for _, r := range ready {
		e.pt.Choices = append(e.pt.Choices, r)
	}
	e.pt.Ops = nil
	if e.set.detailed {
		for _, r := range ready {
			e.pt.Ops = append(e.pt.Ops, strategies.Op{Name: "select case " + itoa(r), Pos: me.where})
		}
	}
	i := e.decide(strategies.Case, me.id, false, nil)
	e.ev.learnt(me, uint64(ready[i]))
	if e.set.detailed {
		me.lastStep = e.stepLog.add(replay.Step{G: me.id, Op: e.pt.Ops[i].Name, Pos: me.where, Stack: e.stepLog.internStack(me.stackText)}, len(e.trail), e.gs)
	}
	return ready[i]
}

// chooseValue asks the strategy for the result of a small-range random
// draw of me, one of 0..n-1 (a decision of kind value); what names the
// draw ("rand.Intn(3)"). Lock held.
//
//go:norace
func (e *execution) chooseValue(me *goroutine, n int, what string) int {
	if n <= 1 {
		return 0
	}
	e.pt.Choices = e.pt.Choices[:0]
	for v := 0; v < n; v++ {
		e.pt.Choices = append(e.pt.Choices, v)
	}
	e.pt.Ops = nil
	var op strategies.Op
	if e.set.detailed {
		op = strategies.Op{Name: what, Pos: callerPos()}
		for v := 0; v < n; v++ {
			e.pt.Ops = append(e.pt.Ops, op)
		}
	}
	i := e.decide(strategies.Value, me.id, false, nil)
	e.ev.learnt(me, uint64(i))
	if e.set.detailed {
		e.stepLog.add(replay.Step{G: me.id, Op: what + " = " + itoa(i), Pos: op.Pos}, len(e.trail), e.gs)
	}
	e.progress.Add(1)
	return i
}

// chooseTimer asks the strategy which of n timers due at the same instant
// fires first: a Case decision whose Current is strategies.Clock. Lock
// held.
//
//go:norace
func (e *execution) chooseTimer(n int) int {
	e.pt.Choices = e.pt.Choices[:0]
	for i := 0; i < n; i++ {
		e.pt.Choices = append(e.pt.Choices, i)
	}
	e.pt.Ops = nil
	i := e.decide(strategies.Case, strategies.Clock, false, timerOp)
	if e.set.detailed {
		e.stepLog.add(replay.Step{G: -1, Op: "timer " + itoa(i) + " of " + itoa(n) + " due at the same instant fires first"}, len(e.trail), e.gs)
	}
	return i
}
