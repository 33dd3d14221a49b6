package runtime

import (
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
)

// Minimizing a bug's schedule (wire.Config.MinimizeNS, gosct test
// --minimize): a strategy's schedule carries every switch it happened to
// make, most of them irrelevant to the bug. Before the trace is written,
// the schedule is shrunk by delta debugging over its deviations from the
// non-preemptive default (strategies.Shrink): drop a part of them, run
// the test under what is left (the default deciding everywhere else), and
// keep the result if it ends in the same bug (same kind, same place: the
// bug's key) and is no larger, counting preemptions first, then steps,
// then the goroutines that ran. Halves, then quarters, and so on, until
// no single part can be dropped (the schedule is 1-minimal) or the time
// allowed runs out. The candidates run quietly: their subtests do not
// fail for the bug they reproduce.

// minimize returns the smallest execution found that ends in e's bug (e
// itself when its schedule could not be run again) and how it was found,
// nil when it was not.
//
//go:norace
func (x *explorer) minimize(e *execution, body func(*testing.T)) (*execution, *replay.Minimized) {
	m := &minimizer{x: x, e: e, body: body, start: time.Now()}
	m.deadline = m.start.Add(time.Duration(x.c.MinimizeNS))
	if !x.deadline.IsZero() && x.deadline.Before(m.deadline) {
		m.deadline = x.deadline
	}
	m.set = x.set
	m.set.quiet = true
	m.set.stopAt = m.deadline // a slow candidate is stopped, the best so far kept
	// The strategy's schedule once more, to learn its deviations.
	best, devs := m.follow(e)
	if best == nil {
		return e, nil
	}
	// First without the timers fired early: a bug that stays without
	// them is not timing-dependent (timing.go).
	if r, d := m.withoutEarly(devs); r != nil {
		best, devs = r, d
	}
	best, devs, complete := m.ddmin(best, devs)
	// Dropping deviations cannot put a switch where the strategy never
	// made one: a bug that needs one preemption, found by a schedule
	// whose switches are all elsewhere, keeps two. Preemption bounding
	// finds the fewest, bound by bound; the schedule it finds is then
	// shrunk in steps like the first.
	if p := sizeOf(best).Preemptions; p > 0 && m.timeLeft() {
		if r := m.bounded(p - 1); r != nil {
			if r2, devs2 := m.follow(r); r2 != nil && smaller(sizeOf(r2), sizeOf(best)) {
				best, devs, complete = m.ddmin(r2, devs2)
			}
		}
	}
	_ = devs
	return best, &replay.Minimized{From: sizeOf(e), To: sizeOf(best), Runs: m.runs, ElapsedS: time.Since(m.start).Seconds(), Complete: complete}
}

// minimizer runs the candidate schedules of one bug.
type minimizer struct {
	x        *explorer
	e        *execution // the strategy's buggy execution
	body     func(*testing.T)
	set      settings
	start    time.Time
	deadline time.Time
	runs     int
}

//go:norace
func (m *minimizer) timeLeft() bool { return time.Now().Before(m.deadline) }

// run runs one candidate, quietly, with the bug's inputs.
//
//go:norace
func (m *minimizer) run(s strategies.Strategy) *execution {
	m.runs++
	r, _ := m.x.runOnce("schedule_"+itoa(m.x.schedules)+"_min_"+itoa(m.runs), s, m.set, m.e.in.inputs, m.body)
	return r
}

// same reports whether r ends in the bug being minimized.
//
//go:norace
func (m *minimizer) same(r *execution) bool {
	return r.bug != nil && r.bug.kind == m.e.bug.kind && r.bug.key == m.e.bug.key && !r.uncontrolled && !r.tooLong && !r.overtime
}

// follow runs the schedule of e again and returns the run and its
// deviations from the default; nil if it did not end in the same bug.
//
//go:norace
func (m *minimizer) follow(e *execution) (*execution, []strategies.Deviation) {
	rec := make([]strategies.Deviation, len(e.trail))
	for i, d := range e.trail {
		rec[i] = strategies.Deviation{Kind: d.kind, Choice: int(d.choice)}
	}
	s := strategies.FollowSchedule(rec)
	s.NewExecution()
	r := m.run(s)
	if !m.same(r) {
		return nil, nil
	}
	return r, append([]strategies.Deviation(nil), s.Taken...)
}

// withoutEarly runs devs without its choices of strategies.Clock (timers
// fired early) and returns the run and its deviations if it ends in the
// same bug; nil if devs has none, or the bug needs them.
//
//go:norace
func (m *minimizer) withoutEarly(devs []strategies.Deviation) (*execution, []strategies.Deviation) {
	var cand []strategies.Deviation
	for _, d := range devs {
		if !(d.Kind == strategies.Goroutine && d.Choice == strategies.Clock) {
			cand = append(cand, d)
		}
	}
	if len(cand) == len(devs) || !m.timeLeft() {
		return nil, nil
	}
	sh := strategies.NewShrink(cand)
	sh.NewExecution()
	r := m.run(sh)
	if !m.same(r) {
		return nil, nil
	}
	return r, append([]strategies.Deviation(nil), sh.Taken...)
}

// ddmin drops parts of devs while the bug stays and the schedule does not
// grow: halves, then quarters..., until no part can be dropped (complete)
// or the time is up.
//
//go:norace
func (m *minimizer) ddmin(best *execution, devs []strategies.Deviation) (*execution, []strategies.Deviation, bool) {
	size := sizeOf(best)
	for n := 2; m.timeLeft(); {
		if len(devs) == 0 {
			return best, devs, true
		}
		n = min(n, len(devs))
		chunk := (len(devs) + n - 1) / n
		shrunk := false
		for i := 0; i < len(devs) && m.timeLeft(); i += chunk {
			cand := append(append([]strategies.Deviation(nil), devs[:i]...), devs[min(i+chunk, len(devs)):]...)
			sh := strategies.NewShrink(cand)
			sh.NewExecution()
			r := m.run(sh)
			if sz := sizeOf(r); m.same(r) && !smaller(size, sz) {
				best, size = r, sz
				devs = append(devs[:0:0], sh.Taken...)
				n = max(n-1, 2)
				shrunk = true
				break
			}
		}
		if !shrunk {
			if n >= len(devs) {
				return best, devs, true
			}
			n = min(2*n, len(devs))
		}
	}
	return best, devs, false
}

// bounded looks for the bug among the schedules of at most bound
// preemptions, fewest first (iterative preemption bounding), and returns
// the first run that ends in it; nil if none did in the time left.
//
//go:norace
func (m *minimizer) bounded(bound int) *execution {
	b := bound
	if b == 0 {
		b = -1 // strategies.Options: bound 0 itself
	}
	s, err := strategies.New("pb", strategies.Options{Seed: m.x.c.Seed, Bound: b})
	if err != nil {
		return nil
	}
	for m.timeLeft() && s.NewExecution() {
		if r := m.run(s); m.same(r) {
			return r
		}
	}
	return nil
}

// sizeOf measures e's schedule.
//
//go:norace
func sizeOf(e *execution) replay.Size {
	s := replay.Size{Steps: len(e.trail), EarlyFirings: len(e.record.earlies), EarlyNS: int64(earlyWait(e.record.earlies))}
	ran := map[int32]bool{0: true}
	for _, d := range e.trail {
		if d.preempt {
			s.Preemptions++
		}
		if d.kind == strategies.Goroutine && d.choice != strategies.Clock {
			ran[d.choice] = true
		}
	}
	s.Goroutines = len(ran)
	return s
}

// smaller orders schedule sizes: fewer timers fired early, then less
// time they made goroutines wait (a schedule that needs no stalled
// goroutine is an interleaving bug, timing.go), then fewer preemptions,
// then fewer steps, then fewer goroutines.
//
//go:norace
func smaller(a, b replay.Size) bool {
	if a.EarlyFirings != b.EarlyFirings {
		return a.EarlyFirings < b.EarlyFirings
	}
	if a.EarlyNS != b.EarlyNS {
		return a.EarlyNS < b.EarlyNS
	}
	if a.Preemptions != b.Preemptions {
		return a.Preemptions < b.Preemptions
	}
	if a.Steps != b.Steps {
		return a.Steps < b.Steps
	}
	return a.Goroutines < b.Goroutines
}

// sizeNote is the report's line on the schedule's size: "schedule: 34
// steps, 2 preemptions, 3 goroutines (shrunk from 210 steps, 17
// preemptions, 5 goroutines in 87 runs)".
//
//go:norace
func sizeNote(size replay.Size, m *replay.Minimized) string {
	s := "schedule: " + size.String()
	if m != nil && m.From != m.To {
		s += " (shrunk from " + m.From.String() + " in " + itoa(m.Runs) + " runs"
		if !m.Complete {
			s += "; time ran out before it was minimal"
		}
		s += ")"
	} else if m != nil && m.Complete {
		s += " (as found: no smaller schedule ends in the same bug)"
	}
	return s
}

// wireSize converts a size for an event.
//
//go:norace
func wireSize(s replay.Size) *wire.Size {
	return &wire.Size{Steps: s.Steps, Preemptions: s.Preemptions, Goroutines: s.Goroutines, EarlyFirings: s.EarlyFirings, EarlyNS: s.EarlyNS}
}

// fromSize is the size the schedule was shrunk from, for an event; nil
// when it was not.
//
//go:norace
func fromSize(m *replay.Minimized) *wire.Size {
	if m == nil {
		return nil
	}
	return wireSize(m.From)
}
