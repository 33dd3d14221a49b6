package strategies

import (
	"bytes"
	"strings"
	"testing"
)

// pctRate runs PCT with depth d on p for the given seeds, execs executions
// each, and returns the fraction of buggy executions.
func pctRate(t *testing.T, p func() *prog, d int, seeds []int64, execs int) float64 {
	t.Helper()
	bugs, runs := 0, 0
	for _, seed := range seeds {
		s := NewPCT(Options{Depth: d, Seed: seed})
		for _, o := range explore(t, p(), s, execs) {
			runs++
			if o.failed {
				bugs++
			}
		}
	}
	return float64(bugs) / float64(runs)
}

var seeds = []int64{1, 2, 3, 5, 8, 13, 21, 34, 55, 89}

func TestPCTFig2Probability(t *testing.T) {
	// SCTBench Example 3: Fig. 2 has a bug of depth 2, n = 4 goroutines
	// and k = 5 counted steps (6 in the paper, which also counts the
	// creating step). PCT's guarantee for d = 2 is 1/(n·k) = 1/20 per
	// execution. With d = 1 (no change point) no goroutine is ever
	// preempted, so the bug cannot happen.
	if r := pctRate(t, fig2, 1, seeds, 200); r != 0 {
		t.Errorf("d=1 found the bug in %.3f of executions; it needs a preemption", r)
	}
	r2 := pctRate(t, fig2, 2, seeds, 200)
	if r2 < 1.0/20 {
		t.Errorf("d=2 found the bug in %.3f of executions, below the bound 1/20", r2)
	}
	r3 := pctRate(t, fig2, 3, seeds, 200)
	if r3 < 1.0/100 {
		t.Errorf("d=3 found the bug in %.3f of executions, below the bound 1/100", r3)
	}
	t.Logf("Fig. 2 bug rate: d=2 %.3f, d=3 %.3f", r2, r3)
}

func TestPCTReorder(t *testing.T) {
	// reorder_5 needs 4 delays but only one preemption; PCT d=2 finds it.
	r := pctRate(t, func() *prog { return reorder(5) }, 2, seeds, 200)
	if r == 0 {
		t.Fatal("PCT d=2 never found reorder_5")
	}
	t.Logf("reorder_5 bug rate d=2: %.3f", r)
}

func TestPCTDeterministic(t *testing.T) {
	run := func(seed int64) []string {
		var out []string
		for _, o := range explore(t, fig2(), NewPCT(Options{Seed: seed}), 50) {
			out = append(out, o.schedule)
		}
		return out
	}
	a, b, c := run(7), run(7), run(8)
	if strings.Join(a, "|") != strings.Join(b, "|") {
		t.Fatal("same seed, different schedules")
	}
	if strings.Join(a, "|") == strings.Join(c, "|") {
		t.Fatal("different seeds, same 50 schedules")
	}
}

func TestPCTEstimates(t *testing.T) {
	s := NewPCT(Options{Depth: 2, Seed: 1})
	explore(t, indep(3, 4), s, 2)
	// 4 goroutines; 12 steps once the second goroutine exists.
	if st := s.Status(); !strings.Contains(st, "n=4 k=12") {
		t.Fatalf("status %q, want n=4 k=12", st)
	}
	// Options are floors.
	s = NewPCT(Options{Depth: 2, Seed: 1, Threads: 9, Steps: 50})
	explore(t, indep(3, 4), s, 2)
	if st := s.Status(); !strings.Contains(st, "n=9 k=50") {
		t.Fatalf("status %q, want n=9 k=50", st)
	}
}

func TestPCTYieldLowersPriority(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		s := NewPCT(Options{Depth: 1, Seed: seed})
		s.NewExecution()
		p := &Point{Kind: Goroutine, Choices: []int{0, 1, 2}, Current: 0}
		top := p.Choices[s.Next(p)]
		// Without a yield, d=1 keeps running the same goroutine.
		p.Current = top
		if got := p.Choices[s.Next(p)]; got != top {
			t.Fatalf("seed %d: switched from %d to %d without a change point", seed, top, got)
		}
		p.Yield = true
		if got := p.Choices[s.Next(p)]; got == top {
			t.Fatalf("seed %d: goroutine %d still runs after yielding", seed, top)
		}
		// It stays lowest: the others run before it again.
		p.Yield = false
		p.Choices = []int{top}
		if got := p.Choices[s.Next(p)]; got != top {
			t.Fatal("only choice not taken")
		}
	}
}

func TestPCTSpinTerminates(t *testing.T) {
	spin := op{name: "spin", yield: true, do: func(s *sim, t *thread) {
		if s.vars[0] == 0 {
			t.pc--
		}
	}}
	p := &prog{nvars: 1, threads: [][]op{{create("go", 1, 2)}, {spin}, {set("set", 0, 1)}}}
	for _, o := range explore(t, p, NewPCT(Options{Seed: 3}), 100) {
		if o.deadlock {
			t.Fatalf("spin loop did not end: %s", o.schedule)
		}
	}
}

func TestPCTManyGoroutines(t *testing.T) {
	// More goroutines than the estimate n: priorities stay distinct.
	s := NewPCT(Options{Depth: 2, Seed: 4, Threads: 2})
	s.NewExecution()
	p := &Point{Kind: Goroutine, Choices: []int{0, 1, 2, 3, 4, 5}}
	s.Next(p)
	seen := map[int]bool{}
	for _, g := range p.Choices {
		if seen[s.prio[g]] || s.prio[g] < 2 {
			t.Fatalf("priorities %v not distinct initial values", s.prio)
		}
		seen[s.prio[g]] = true
	}
}

func TestPCTExample3(t *testing.T) {
	// SCTBench Example 3 on Fig. 2, with the example's draws forced:
	// priorities T0 5, T1 4, T3 3, T2 2, change point after T1's step b
	// (the paper's k_1 = 2, our 1: we do not count the creating step).
	// T0 runs a, T1 runs b and drops to priority 1, T3 runs e: the
	// assertion fails on <a, b, e>.
	s := NewPCT(Options{Depth: 2, Threads: 4, Steps: 6})
	s.NewExecution()
	s.prio = append(s.prio[:0], 5, 4, 2, 3)
	s.unused = s.unused[:0]
	s.change, s.changeTo = []int{1}, []int{1}
	o := fig2().run(s, 100)
	if want := "T0:a T1:b T3:e"; o.schedule != want || !o.failed {
		t.Fatalf("schedule %q (failed %v), want %q failing", o.schedule, o.failed, want)
	}
}

func TestPCTResume(t *testing.T) {
	// reorder(4) has more goroutines and steps than the defaults, so the
	// resumed strategy must carry n and k over to draw the same schedules.
	for _, d := range []int{1, 2, 3} {
		mk := func() Strategy { return NewPCT(Options{Seed: 3, Depth: d}) }
		checkResume(t, mk, func() *prog { return reorder(4) }, 200, 0, 1, 2, 57, 199, 200)
	}
	var buf bytes.Buffer
	s := NewPCT(Options{Seed: 3, Depth: 2})
	explore(t, fig2(), s, 3)
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := NewPCT(Options{Seed: 3, Depth: 3}).Load(bytes.NewReader(buf.Bytes())); err == nil {
		t.Fatal("pct d=3 loaded the state of pct d=2")
	}
}
