package runtime

import (
	"fmt"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
)

// The determinism check (wire.Config.CheckDeterminism, gosct test
// --check-determinism) runs every schedule twice: the second run replays
// the first one's decisions with its inputs, as `gosct replay` would, and
// the two must agree on every decision, on the outcome and on every source
// read. The first difference is reported with the likely source, found by
// comparing the two runs' source logs (replay.SourceCause).

// checkDeterminism runs the schedule of e, a detailed execution, again and
// compares. It returns the second run, and false when the runs differed
// (reported as a "nondeterministic" event).
//
//go:norace
func (x *explorer) checkDeterminism(e *execution, body func(*testing.T)) (*execution, bool) {
	rs := replay.NewReplayer(x.trace(e, e))
	e2, _ := x.runOnce("schedule_"+itoa(x.number())+"_check", rs, x.set, e.in.inputs, body)
	var what string
	var f replay.Finding
	if d := rs.Finish(); d != nil {
		what = "the second run " + d.Error()
		f = replay.SourceCause(e.in.sources, e2.in.sources, d.Step)
	} else if outcome(e) != outcome(e2) {
		what = fmt.Sprintf("the two runs took the same decisions but ended differently (%s, then %s)", outcome(e), outcome(e2))
		f = replay.SourceCause(e.in.sources, e2.in.sources, len(e.trail))
	} else if df, ok := replay.DiffSources(e.in.sources, e2.in.sources, len(e.trail)); ok {
		what = "the two runs took the same decisions, but read a source differently"
		f = df
	} else {
		return e2, true
	}
	cause := f.Text
	if cause == "" {
		cause = "unknown: a source gosct neither controls nor sees (code outside the instrumented packages, a value carried over from an earlier schedule in package-level state)"
	}
	x.nondet++
	x.emit(&wire.Event{Event: "nondeterministic", Schedule: x.number(), Source: f.Kind,
		Message: fmt.Sprintf("%s: schedule %d is not deterministic: %s; likely source: %s", x.t.Name(), x.number(), what, cause)})
	return e2, false
}

// outcome names how an execution ended, for the check's message.
//
//go:norace
func outcome(e *execution) string {
	if e.bug == nil {
		return "no bug"
	}
	return e.bug.kind
}

// divergenceCause names the likely source of a replay's divergence at
// decision step: what differs between the trace and this run (files,
// sources), else what the trace says of its own recording.
//
//go:norace
func (x *explorer) divergenceCause(step int, e *execution) replay.Finding {
	tr := x.trace0
	if f := replay.Cause(tr, e.in.sources, x.files(), step); f.Text != "" {
		return f
	}
	switch {
	case tr.Uncontrolled:
		return replay.Finding{Kind: "uncontrolled code", Text: "the recorded run depended on something gosct does not control (the trace is marked uncontrolled)"}
	case tr.Inputs == nil:
		return replay.Finding{Kind: "old trace", Text: "the trace predates recorded inputs (format 1): its random draws, map orders and clock are not known"}
	case tr.Schedule > 1:
		return replay.Finding{Kind: "package state", Text: fmt.Sprintf("package-level state, if the test has any: the trace was recorded after %d earlier schedules in one process, which a replay does not run (gosct test --per-process records every schedule in a fresh process)", tr.Schedule-1)}
	}
	return replay.Finding{}
}
