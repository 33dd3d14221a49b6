package replay

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/gosct/gosct/strategies"
)

// Divergence says where a program stopped following a trace: the recorded
// decision at Step could not be taken again.
type Divergence struct {
	// Step is the 0-based index of the decision in Trace.Decisions.
	Step int
	// Expected describes the recorded decision: "goroutine 3 at chan send
	// queue.go:41". Got describes what the program offered instead.
	Expected, Got string
	// Cause names the likely source, when one is known: a source read
	// differently, a file changed since the trace was written (see Cause).
	Cause Finding
}

// Error makes a Divergence usable as an error.
func (d *Divergence) Error() string {
	s := fmt.Sprintf("diverged at step %d: expected %s, got %s", d.Step+1, d.Expected, d.Got)
	if d.Cause.Text != "" {
		s += "; likely source: " + d.Cause.Text
	}
	return s
}

// Replayer is the strategies.Strategy that takes the decisions of a Trace
// again: for `gosct replay`, for the runtime's detailed re-run of a buggy
// schedule (which writes its trace), and for the second run of the
// determinism check. On the first decision that cannot be taken (the
// recorded choice is not enabled, the point is of another kind or reached
// by another goroutine, the chosen goroutine is at another operation, or
// the trace has run out) it records a Divergence. Without Continue it then
// answers 0, the first choice, to every point, and the runtime lets the
// execution run to its end: what a changed program does from there is
// still worth reporting, and Finish or Diverged tell that it no longer
// followed the trace. With Continue the rest of the execution is decided by
// Fallback, so a trace recorded before a small code change still leads
// near its bug.
type Replayer struct {
	// Continue keeps going after a divergence, with Fallback.
	Continue bool
	// Fallback decides the points after a divergence when Continue is set.
	// NewReplayer sets it to the "random" strategy seeded from the trace.
	Fallback strategies.Strategy

	trace     *Trace
	step      int
	execs     int
	diverged  *Divergence
	firstDiff *Divergence
}

// NewReplayer returns a Replayer for t.
func NewReplayer(t *Trace) *Replayer {
	fb, err := strategies.New("random", strategies.Options{Seed: t.Seed})
	if err != nil {
		// The random strategy is not registered in this build; a local
		// uniform choice is the same thing.
		fb = &uniform{rng: rand.New(rand.NewSource(t.Seed))}
	}
	return &Replayer{trace: t, Fallback: fb}
}

// NewExecution starts the trace from its first decision. A trace is one
// execution, so without Continue a second execution is refused; with
// Continue every execution replays the recorded prefix up to the divergence
// and explores from there.
func (r *Replayer) NewExecution() bool {
	r.execs++
	if r.execs > 1 && !r.Continue {
		return false
	}
	r.step = 0
	r.diverged = nil
	if r.Fallback != nil && r.Continue {
		r.Fallback.NewExecution()
	}
	return true
}

// Next returns the index of the recorded choice in p.Choices.
func (r *Replayer) Next(p *strategies.Point) int {
	if r.diverged != nil {
		return r.afterDivergence(p)
	}
	i := r.step
	r.step++
	if i >= len(r.trace.Decisions) {
		r.diverge(i, "the end of the trace", describePoint(p))
		return r.afterDivergence(p)
	}
	d := &r.trace.Decisions[i]
	switch {
	case d.Kind != p.Kind.String():
		r.diverge(i, describeDecision(d), describePoint(p))
	case d.G != p.Current && p.Kind != strategies.Goroutine:
		r.diverge(i, describeDecision(d), describePoint(p))
	case d.G != p.Current:
		r.diverge(i, fmt.Sprintf("%s after goroutine %d", describeDecision(d), d.G),
			fmt.Sprintf("%s after goroutine %d", describePoint(p), p.Current))
	default:
		k := p.Index(d.Choice)
		if k >= 0 && r.sameOp(d, p, k) {
			return k
		}
		r.diverge(i, describeDecision(d), describePoint(p))
	}
	return r.afterDivergence(p)
}

// Following reports whether the current execution still follows the trace
// (strategies.Follower).
func (r *Replayer) Following() bool { return r.diverged == nil }

// Trace returns the trace r replays.
func (r *Replayer) Trace() *Trace { return r.trace }

// Finish is called by the runtime when an execution ends. If the program
// finished before taking every recorded decision, that is a divergence too
// (the bug needed steps that did not happen); Finish records and returns it.
func (r *Replayer) Finish() *Divergence {
	if r.diverged == nil && r.step < len(r.trace.Decisions) {
		r.diverge(r.step, describeDecision(&r.trace.Decisions[r.step]), "the end of the execution")
	}
	return r.diverged
}

// Diverged returns the divergence of the current execution, or nil while the
// program follows the trace.
func (r *Replayer) Diverged() *Divergence { return r.diverged }

// FirstDivergence returns the divergence of the first execution: with
// Continue, later executions diverge again and only the first is news.
func (r *Replayer) FirstDivergence() *Divergence { return r.firstDiff }

// Steps returns how many decisions of the trace the current execution took.
func (r *Replayer) Steps() int {
	if r.diverged != nil {
		return r.diverged.Step
	}
	return r.step
}

func (r *Replayer) diverge(step int, expected, got string) {
	r.diverged = &Divergence{Step: step, Expected: expected, Got: got}
	if r.firstDiff == nil {
		r.firstDiff = r.diverged
	}
}

func (r *Replayer) afterDivergence(p *strategies.Point) int {
	if !r.Continue || r.Fallback == nil {
		return 0
	}
	k := r.Fallback.Next(p)
	if k < 0 || k >= len(p.Choices) {
		return 0
	}
	return k
}

// sameOp reports whether choice k of p is at the operation the trace
// recorded, when both sides know it. Positions are not compared: an edit
// elsewhere in the file shifts lines without changing the schedule.
func (r *Replayer) sameOp(d *Decision, p *strategies.Point, k int) bool {
	if d.Op == "" || k >= len(p.Ops) || p.Ops[k].Name == "" {
		return true
	}
	rec := d.Op
	if r.trace.Format == 1 && d.Pos != "" && !strings.Contains(d.Pos, ":") {
		// Format 1 split "mutex lock" (no position) at its last space.
		rec += " " + d.Pos
	}
	return rec == p.Ops[k].Name
}

// describeDecision renders a recorded decision the way describePoint renders
// a live one, so the two sides of a divergence read alike.
func describeDecision(d *Decision) string {
	var b strings.Builder
	switch {
	case d.Kind == "case" && d.G == strategies.Clock:
		fmt.Fprintf(&b, "timer %d of those due together", d.Choice)
	case d.Kind == "case":
		fmt.Fprintf(&b, "select case %d of goroutine %d", d.Choice, d.G)
	case d.Kind == "value":
		fmt.Fprintf(&b, "value %d for goroutine %d", d.Choice, d.G)
	case d.Choice == strategies.Clock:
		b.WriteString("the clock (a timer fires)")
	default:
		fmt.Fprintf(&b, "goroutine %d", d.Choice)
	}
	if op := (strategies.Op{Name: d.Op, Pos: d.Pos}).String(); op != "" {
		b.WriteString(" at ")
		b.WriteString(op)
	}
	return b.String()
}

func describePoint(p *strategies.Point) string {
	parts := make([]string, 0, len(p.Choices))
	for i, c := range p.Choices {
		var s string
		switch {
		case p.Kind == strategies.Case && p.Current == strategies.Clock:
			s = fmt.Sprintf("timer %d of those due together", c)
		case p.Kind == strategies.Case:
			s = fmt.Sprintf("select case %d of goroutine %d", c, p.Current)
		case p.Kind == strategies.Value:
			s = fmt.Sprintf("value %d for goroutine %d", c, p.Current)
		case c == strategies.Clock:
			s = "the clock (a timer fires)"
		default:
			s = fmt.Sprintf("goroutine %d", c)
		}
		if i < len(p.Ops) {
			if op := p.Ops[i].String(); op != "" {
				s += " at " + op
			}
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no choice"
	}
	if p.Kind == strategies.Value && len(parts) > 1 {
		return fmt.Sprintf("one of %d values for goroutine %d", len(parts), p.Current) + atOp(p)
	}
	return strings.Join(parts, " or ")
}

func atOp(p *strategies.Point) string {
	if len(p.Ops) > 0 && p.Ops[0].String() != "" {
		return " at " + p.Ops[0].String()
	}
	return ""
}

// uniform is the fallback when the strategies package has no "random".
type uniform struct{ rng *rand.Rand }

func (u *uniform) NewExecution() bool { return true }

func (u *uniform) Next(p *strategies.Point) int { return u.rng.Intn(len(p.Choices)) }
