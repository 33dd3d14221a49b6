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
	start := time.Now()
	deadline := start.Add(time.Duration(x.c.MinimizeNS))
	if !x.deadline.IsZero() && x.deadline.Before(deadline) {
		deadline = x.deadline
	}
	set := x.set
	set.quiet = true
	runs := 0
	run := func(s *strategies.Shrink) *execution {
		runs++
		s.NewExecution()
		r, _ := x.runOnce("schedule_"+itoa(x.schedules)+"_min_"+itoa(runs), s, set, e.in, body)
		return r
	}
	same := func(r *execution) bool {
		return r.bug != nil && r.bug.kind == e.bug.kind && r.bug.key == e.bug.key && !r.uncontrolled && !r.tooLong
	}
	// The strategy's schedule once more, to learn its deviations.
	rec := make([]strategies.Deviation, len(e.trail))
	for i, d := range e.trail {
		rec[i] = strategies.Deviation{Kind: d.kind, Choice: int(d.choice)}
	}
	s := strategies.FollowSchedule(rec)
	best := run(s)
	if !same(best) {
		return e, nil
	}
	size := sizeOf(best)
	devs := append([]strategies.Deviation(nil), s.Taken...)
	complete := false
	for n := 2; time.Now().Before(deadline); {
		if len(devs) == 0 {
			complete = true
			break
		}
		n = min(n, len(devs))
		chunk := (len(devs) + n - 1) / n
		shrunk := false
		for i := 0; i < len(devs) && time.Now().Before(deadline); i += chunk {
			cand := append(append([]strategies.Deviation(nil), devs[:i]...), devs[min(i+chunk, len(devs)):]...)
			sh := strategies.NewShrink(cand)
			r := run(sh)
			if sz := sizeOf(r); same(r) && !smaller(size, sz) {
				best, size = r, sz
				devs = append(devs[:0:0], sh.Taken...)
				n = max(n-1, 2)
				shrunk = true
				break
			}
		}
		if !shrunk {
			if n >= len(devs) {
				complete = true
				break
			}
			n = min(2*n, len(devs))
		}
	}
	return best, &replay.Minimized{From: sizeOf(e), To: size, Runs: runs, ElapsedS: time.Since(start).Seconds(), Complete: complete}
}

// sizeOf measures e's schedule.
//
//go:norace
func sizeOf(e *execution) replay.Size {
	s := replay.Size{Steps: len(e.trail)}
	ran := map[int32]bool{0: true}
	for _, d := range e.trail {
		if d.preempt {
			s.Preemptions++
		}
		if d.kind == strategies.Goroutine {
			ran[d.choice] = true
		}
	}
	s.Goroutines = len(ran)
	return s
}

// smaller orders schedule sizes: fewer preemptions, then fewer steps,
// then fewer goroutines.
//
//go:norace
func smaller(a, b replay.Size) bool {
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
	return &wire.Size{Steps: s.Steps, Preemptions: s.Preemptions, Goroutines: s.Goroutines}
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
