package replay

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gosct/gosct/strategies"
)

// run drives s through the points, as the runtime would, and returns its
// answers; it stops early if a *Replayer reports a divergence without
// Continue, as the runtime does.
func run(s strategies.Strategy, points []strategies.Point) []int {
	var out []int
	for i := range points {
		k := s.Next(&points[i])
		out = append(out, k)
		if r, ok := s.(*Replayer); ok && r.Diverged() != nil && !r.Continue {
			break
		}
	}
	return out
}

func gpoint(cur int, choices ...int) strategies.Point {
	return strategies.Point{Kind: strategies.Goroutine, Current: cur, Choices: choices}
}

func TestRecordThenReplay(t *testing.T) {
	points := []strategies.Point{
		gpoint(0, 0, 1, 2),
		{Kind: strategies.Case, Current: 2, Choices: []int{0, 3}},
		gpoint(2, 0, 1),
		gpoint(1, 1),
		gpoint(1, 0, 2),
	}
	// Record as the runtime does: the choice taken at each point.
	u := &uniform{rng: newRand(7)}
	want := run(u, points)
	tr := &Trace{Test: "TestX", Seed: 7}
	for i, k := range want {
		tr.Decisions = append(tr.Decisions, Decision{Kind: points[i].Kind.String(), Choice: points[i].Choices[k], G: points[i].Current})
	}
	if len(tr.Decisions) != len(points) {
		t.Fatalf("recorded %d decisions, want %d", len(tr.Decisions), len(points))
	}
	for i, d := range tr.Decisions {
		if d.Choice != points[i].Choices[want[i]] || d.G != points[i].Current || d.Kind != points[i].Kind.String() {
			t.Errorf("decision %d = %+v, chose index %d of %v", i, d, want[i], points[i].Choices)
		}
	}
	for trial := 0; trial < 10; trial++ {
		r := NewReplayer(tr)
		if !r.NewExecution() {
			t.Fatal("first execution refused")
		}
		got := run(r, points)
		if r.Finish() != nil {
			t.Fatalf("replay diverged: %v", r.Diverged())
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("trial %d step %d: replayed index %d, recorded %d", trial, i, got[i], want[i])
			}
		}
		if r.NewExecution() {
			t.Fatal("a second execution was offered without Continue")
		}
	}
}

func TestReplayMapsChoiceToIndex(t *testing.T) {
	// The recorded goroutine is the same, but another goroutine is now
	// enabled before it: the index moves, the choice does not.
	tr := &Trace{Test: "TestX", Decisions: []Decision{{Kind: "goroutine", Choice: 3, G: 0}}}
	r := NewReplayer(tr)
	r.NewExecution()
	p := gpoint(0, 0, 2, 3)
	if k := r.Next(&p); k != 2 || r.Diverged() != nil {
		t.Fatalf("Next = %d (diverged %v), want 2", k, r.Diverged())
	}
}

func TestDivergenceNotEnabled(t *testing.T) {
	tr := &Trace{Test: "TestX", Decisions: []Decision{
		{Kind: "goroutine", Choice: 1, G: 0},
		{Kind: "goroutine", Choice: 3, G: 1, Op: "chan send", Pos: "queue.go:41"},
	}}
	r := NewReplayer(tr)
	r.NewExecution()
	p0 := gpoint(0, 0, 1)
	r.Next(&p0)
	p1 := strategies.Point{Kind: strategies.Goroutine, Current: 1, Choices: []int{2}, Ops: []strategies.Op{{Name: "mutex lock", Pos: "queue.go:17"}}}
	if k := r.Next(&p1); k != 0 {
		t.Errorf("Next after divergence = %d, want 0", k)
	}
	d := r.Diverged()
	if d == nil {
		t.Fatal("no divergence")
	}
	const want = "diverged at step 2: expected goroutine 3 at chan send queue.go:41, got goroutine 2 at mutex lock queue.go:17"
	if d.Error() != want || d.Step != 1 {
		t.Errorf("divergence %q (step %d), want %q", d.Error(), d.Step, want)
	}
	if r.Steps() != 1 {
		t.Errorf("Steps = %d, want 1", r.Steps())
	}
}

func TestDivergenceKindAndGoroutine(t *testing.T) {
	tr := &Trace{Test: "TestX", Decisions: []Decision{{Kind: "case", Choice: 1, G: 2}}}
	r := NewReplayer(tr)
	r.NewExecution()
	p := gpoint(2, 1, 2)
	r.Next(&p)
	if d := r.Diverged(); d == nil || !strings.Contains(d.Got, "goroutine 1 or goroutine 2") || !strings.Contains(d.Expected, "select case 1") {
		t.Errorf("kind mismatch: divergence %v", d)
	}

	tr = &Trace{Test: "TestX", Decisions: []Decision{{Kind: "goroutine", Choice: 1, G: 2}}}
	r = NewReplayer(tr)
	r.NewExecution()
	p = gpoint(0, 0, 1) // goroutine 1 is enabled, but the point was reached by 0, not 2
	r.Next(&p)
	if d := r.Diverged(); d == nil || !strings.Contains(d.Error(), "after goroutine 2") || !strings.Contains(d.Error(), "after goroutine 0") {
		t.Errorf("goroutine mismatch: divergence %v", d)
	}
}

func TestDivergenceEndOfTrace(t *testing.T) {
	tr := &Trace{Test: "TestX", Decisions: []Decision{{Kind: "goroutine", Choice: 0, G: 0}}}
	r := NewReplayer(tr)
	r.NewExecution()
	p := gpoint(0, 0)
	r.Next(&p)
	if r.Diverged() != nil {
		t.Fatal("diverged too early")
	}
	r.Next(&p)
	if d := r.Diverged(); d == nil || d.Step != 1 || !strings.Contains(d.Expected, "end of the trace") {
		t.Errorf("divergence %v, want one at the end of the trace", d)
	}
}

func TestFinishReportsUnusedDecisions(t *testing.T) {
	tr := &Trace{Test: "TestX", Decisions: []Decision{{Kind: "goroutine", Choice: 0, G: 0}, {Kind: "goroutine", Choice: 1, G: 0, Op: "wg wait", Pos: "a.go:3"}}}
	r := NewReplayer(tr)
	r.NewExecution()
	p := gpoint(0, 0)
	r.Next(&p)
	d := r.Finish()
	if d == nil || d.Step != 1 || d.Got != "the end of the execution" || !strings.Contains(d.Expected, "wg wait a.go:3") {
		t.Errorf("Finish = %v", d)
	}
}

// stubStrategy always picks the last choice, so the test can tell the
// fallback's answers from the replayed ones.
type stubStrategy struct{ execs int }

func (s *stubStrategy) NewExecution() bool { s.execs++; return true }
func (s *stubStrategy) Next(p *strategies.Point) int {
	return len(p.Choices) - 1
}

func TestContinueFallsBack(t *testing.T) {
	tr := &Trace{Test: "TestX", Seed: 3, Decisions: []Decision{
		{Kind: "goroutine", Choice: 0, G: 0},
		{Kind: "goroutine", Choice: 5, G: 0},
		{Kind: "goroutine", Choice: 0, G: 0},
	}}
	r := NewReplayer(tr)
	fb := &stubStrategy{}
	r.Fallback = fb
	r.Continue = true
	for exec := 0; exec < 3; exec++ {
		if !r.NewExecution() {
			t.Fatalf("execution %d refused with Continue", exec)
		}
		points := []strategies.Point{gpoint(0, 0, 1), gpoint(0, 0, 1, 2), gpoint(0, 0, 1)}
		got := run(r, points)
		want := []int{0, 2, 1}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("execution %d: answers %v, want %v (prefix replayed, then fallback)", exec, got, want)
			}
		}
		if d := r.Diverged(); d == nil || d.Step != 1 {
			t.Fatalf("execution %d: divergence %v, want step 1", exec, d)
		}
	}
	if fb.execs != 3 {
		t.Errorf("fallback saw %d executions, want 3", fb.execs)
	}
	if r.FirstDivergence() == nil || r.FirstDivergence().Step != 1 {
		t.Errorf("FirstDivergence = %v", r.FirstDivergence())
	}
}

func TestDefaultFallbackIsDeterministic(t *testing.T) {
	tr := &Trace{Test: "TestX", Seed: 11}
	answers := func() []int {
		r := NewReplayer(tr)
		r.Continue = true
		r.NewExecution()
		var out []int
		for i := 0; i < 50; i++ {
			p := gpoint(0, 0, 1, 2, 3)
			k := r.Next(&p)
			if k < 0 || k > 3 {
				t.Fatalf("fallback index %d out of range", k)
			}
			out = append(out, k)
		}
		return out
	}
	a, b := answers(), answers()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different fallback answers: %v vs %v", a, b)
		}
	}
}

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

func TestDivergenceOtherOperation(t *testing.T) {
	tr := &Trace{Format: 1, Test: "TestX", Decisions: []Decision{
		{Kind: "goroutine", Choice: 1, G: 0, Op: "mutex", Pos: "lock"}, // format 1 split a position-less op at its last space
		{Kind: "goroutine", Choice: 1, G: 1, Op: "chan send", Pos: "q.go:41"},
	}}
	r := NewReplayer(tr)
	r.NewExecution()
	p := strategies.Point{Kind: strategies.Goroutine, Current: 0, Choices: []int{0, 1}, Ops: []strategies.Op{{Name: "go", Pos: "q.go:3"}, {Name: "mutex lock"}}}
	if k := r.Next(&p); k != 1 || r.Diverged() != nil {
		t.Fatalf("same operation: Next = %d, diverged %v", k, r.Diverged())
	}
	// Same goroutine, moved line: still the same operation.
	p = strategies.Point{Kind: strategies.Goroutine, Current: 1, Choices: []int{1}, Ops: []strategies.Op{{Name: "chan send", Pos: "q.go:44"}}}
	r2 := NewReplayer(&Trace{Format: 1, Test: "TestX", Decisions: tr.Decisions[1:]})
	r2.NewExecution()
	if r2.Next(&p); r2.Diverged() != nil {
		t.Fatalf("a moved line is not a divergence: %v", r2.Diverged())
	}
	// Same goroutine, another operation: divergence.
	p = strategies.Point{Kind: strategies.Goroutine, Current: 1, Choices: []int{1}, Ops: []strategies.Op{{Name: "mutex unlock", Pos: "q.go:41"}}}
	r.Next(&p)
	d := r.Diverged()
	if d == nil || d.Error() != "diverged at step 2: expected goroutine 1 at chan send q.go:41, got goroutine 1 at mutex unlock q.go:41" {
		t.Fatalf("divergence %v", d)
	}
}
