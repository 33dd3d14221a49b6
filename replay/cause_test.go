package replay

import (
	"strings"
	"testing"

	"github.com/gosct/gosct/strategies"
)

func TestCauseNamesChangedFiles(t *testing.T) {
	rec := &Trace{Files: map[string]string{"a/x.go": "h1", "a/y.go": "h2"}}
	f := Cause(rec, nil, map[string]string{"a/x.go": "h1", "a/y.go": "h3"}, 4)
	if f.Kind != "changed file" || f.Text != "a/y.go changed since the trace was written" {
		t.Errorf("Cause = %+v", f)
	}
	if f := Cause(rec, nil, nil, 4); f.Text != "" {
		t.Errorf("unknown current files: Cause = %+v, want none", f)
	}
}

func TestSourceCause(t *testing.T) {
	a := []Source{
		{Kind: "map order", What: "range over map", Pos: "x.go:3", Step: 1, Value: "1", Controlled: true},
		{Kind: "rand", What: "rand.Float64", Pos: "x.go:5", Step: 2, Value: "2", Controlled: true},
		{Kind: "env", What: "os.Getenv(HOME)", Pos: "x.go:9", Step: 7, Value: "3"},
	}
	b := append([]Source(nil), a...)
	if f, ok := DiffSources(a, b, 100); ok {
		t.Errorf("equal logs differ: %+v", f)
	}
	b[2].Value = "4"
	if f, ok := DiffSources(a, b, 6); ok {
		t.Errorf("a difference after the step counted: %+v", f)
	}
	f, ok := DiffSources(a, b, 7)
	if !ok || f.Kind != "env" || !strings.Contains(f.Text, "os.Getenv(HOME) at x.go:9 read another value: gosct does not control it") {
		t.Errorf("DiffSources = %+v, %v", f, ok)
	}
	b[1].Value = "5"
	if f := SourceCause(a, b, 7); f.Kind != "rand" || !strings.Contains(f.Text, "rand.Float64 at x.go:5") {
		t.Errorf("the first difference is the rand draw: %+v", f)
	}
	// Equal, but uncontrolled before the step: named as the likely cause.
	u := []Source{{Kind: "uncontrolled code", What: "G1 ran in uncontrolled code", Pos: "y.go:2", Step: 3}}
	if f := SourceCause(u, u, 5); f.Kind != "uncontrolled code" {
		t.Errorf("SourceCause = %+v, want the uncontrolled code", f)
	}
	v := []Source{{Kind: "uncontrolled channel", What: "chan receive", Step: 4}}
	if f, ok := DiffSources(u[:0:0], v, 5); !ok || !strings.Contains(f.Text, "read in one run only") {
		t.Errorf("a source read by one run only: %+v, %v", f, ok)
	}
	w := []Source{{Kind: "uncontrolled channel", What: "chan receive", Step: 2}}
	if f, ok := DiffSources(v, w, 5); !ok || !strings.Contains(f.Text, "at step 5 in one run and 3 in the other") {
		t.Errorf("an uncontrolled read at another step: %+v, %v", f, ok)
	}
}

func TestDivergenceNamesCause(t *testing.T) {
	d := &Divergence{Step: 2, Expected: "goroutine 1", Got: "goroutine 2", Cause: Finding{"rand", "rand: rand.Float64 at x.go:5 read another value"}}
	if !strings.HasSuffix(d.Error(), "; likely source: rand: rand.Float64 at x.go:5 read another value") {
		t.Errorf("Error = %q", d.Error())
	}
}

func TestReplayValueDecisions(t *testing.T) {
	tr := &Trace{Format: Format, Test: "TestX", Decisions: []Decision{
		{Kind: "value", Choice: 1, G: 0, Op: "rand.Intn(2)", Pos: "x.go:3"},
		{Kind: "value", Choice: 2, G: 0, Op: "rand.Intn(3)", Pos: "x.go:4"},
	}}
	r := NewReplayer(tr)
	r.NewExecution()
	op := func(n string) []strategies.Op {
		return []strategies.Op{{Name: n, Pos: "x.go:3"}, {Name: n, Pos: "x.go:3"}}
	}
	p := strategies.Point{Kind: strategies.Value, Current: 0, Choices: []int{0, 1}, Ops: op("rand.Intn(2)")}
	if k := r.Next(&p); k != 1 || !r.Following() {
		t.Fatalf("Next = %d, following %v", k, r.Following())
	}
	// The program now draws among 2 where the trace drew 2 of 3.
	p = strategies.Point{Kind: strategies.Value, Current: 0, Choices: []int{0, 1}, Ops: op("rand.Intn(2)")}
	r.Next(&p)
	d := r.Diverged()
	if d == nil || r.Following() || !strings.Contains(d.Error(), "expected value 2 for goroutine 0 at rand.Intn(3) x.go:4, got one of 2 values for goroutine 0 at rand.Intn(2) x.go:3") {
		t.Errorf("divergence %v", d)
	}
}
