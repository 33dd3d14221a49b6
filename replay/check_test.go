package replay

import (
	"strings"
	"testing"
)

// abba is a correct story: G0 starts G1, each takes one lock, then blocks
// on the other's.
func abba() *Trace {
	return &Trace{
		Decisions: []Decision{
			{Kind: "goroutine", Choice: 0, G: 0, Op: "go"},
			{Kind: "goroutine", Choice: 0, G: 0, Op: "mutex lock"},
			{Kind: "goroutine", Choice: 1, G: 0, Op: "start"},
			{Kind: "goroutine", Choice: 1, G: 1, Op: "mutex lock"},
			{Kind: "goroutine", Choice: 1, G: 1, Op: "mutex lock"},
			{Kind: "goroutine", Choice: 0, G: 1, Op: "mutex lock"},
		},
		Steps: []Step{
			{Decision: 0, G: 0, Op: "go", Pos: "t.go:8", Child: 1},
			{Decision: 2, G: 0, Op: "mutex lock", Pos: "a.go:33", Obj: 1},
			{Decision: 3, G: 1, Op: "start"},
			{Decision: 4, G: 1, Op: "mutex lock", Pos: "a.go:33", Obj: 2},
			{Decision: 5, G: 1, Op: "mutex lock", Pos: "a.go:35", Blocked: "mutex held by G0"},
			{Decision: 6, G: 0, Op: "mutex lock", Pos: "a.go:35", Blocked: "mutex held by G1"},
		},
		Goroutines: []Goroutine{{ID: 0, Created: "test goroutine"}, {ID: 1, Created: "t.go:8"}},
	}
}

func TestCheckStepsAcceptsACausalStory(t *testing.T) {
	if errs := CheckSteps(abba()); errs != nil {
		t.Fatalf("a correct story: %v", errs)
	}
}

func TestCheckStepsFindsContradictions(t *testing.T) {
	for _, c := range []struct {
		name   string
		break_ func(t *Trace)
		want   string
	}{
		{"start before its go statement", func(t *Trace) {
			t.Steps[0], t.Steps[2] = t.Steps[2], t.Steps[0]
			t.Steps[0].Decision, t.Steps[2].Decision = 0, 3
		}, "before the go statement"},
		{"a step under the wrong goroutine", func(t *Trace) { t.Steps[3].G = 0 }, "does not run"},
		{"a lock taken while held", func(t *Trace) { t.Steps[3].Obj = 1 }, "taken while G0 holds it"},
		{"a decision's operation missing", func(t *Trace) { t.Steps[1].Op = "chan send" }, "no step of G0 shows it"},
		{"a blocked goroutine going on elsewhere", func(t *Trace) {
			t.Steps = append(t.Steps, Step{Decision: 6, G: 0, Op: "chan send", Pos: "a.go:40"})
		}, "goes on elsewhere"},
		{"a receive before any send", func(t *Trace) {
			t.Steps = append(t.Steps[:4], Step{Decision: 5, G: 1, Op: "chan receive", Pos: "a.go:50", Obj: 3},
				Step{Decision: 6, G: 0, Op: "chan send", Pos: "a.go:51", Obj: 3})
			t.Decisions[4].Op, t.Decisions[5].Op = "chan receive", "chan send"
		}, "before its send"},
	} {
		tr := abba()
		c.break_(tr)
		errs := CheckSteps(tr)
		found := false
		for _, e := range errs {
			found = found || strings.Contains(e.Error(), c.want)
		}
		if !found {
			t.Errorf("%s: want an error with %q, got %v", c.name, c.want, errs)
		}
	}
}

func TestTable(t *testing.T) {
	tr := abba()
	got := Table(tr.Steps, tr.Goroutines, 0)
	want := `interleaving:
    step   | G0 test goroutine                             | G1 t.go:8
    0      | go t.go:8 → G1                                |
    2      | mutex lock #1 a.go:33                         |
    3      |                                               | start
    4      |                                               | mutex lock #2 a.go:33
    5      |                                               | mutex lock a.go:35 (blocks: mutex held by G0)
    6      | mutex lock a.go:35 (blocks: mutex held by G1) |
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if last := Table(tr.Steps, tr.Goroutines, 2); !strings.Contains(last, "(last 2 steps of 6)") || strings.Contains(last, "start") {
		t.Errorf("the last 2 rows:\n%s", last)
	}
}
