package strategies

import (
	"bytes"
	"strings"
	"testing"
)

func TestLuby(t *testing.T) {
	want := []int{1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1}
	for i, w := range want {
		if got := luby(i + 1); got != w {
			t.Fatalf("luby(%d) = %d, want %d", i+1, got, w)
		}
	}
}

func TestDFSRBIsDFSAboveThreshold(t *testing.T) {
	// With a threshold deeper than the tree nothing is pruned: DFS-RB is
	// the complete DFS, in the same order, and reports exhaustion.
	s := NewDFSRBConfig(Options{Seed: 1}, DFSRBConfig{Thresholds: []int{1000}})
	d := NewDFS(Options{})
	a := explore(t, indep(3, 2), s, 1000)
	b := explore(t, indep(3, 2), d, 1000)
	if len(a) != 90 || len(a) != len(b) {
		t.Fatalf("dfsrb %d schedules, dfs %d, want 90", len(a), len(b))
	}
	for i := range a {
		if a[i].schedule != b[i].schedule {
			t.Fatalf("schedule %d: dfsrb %s, dfs %s", i, a[i].schedule, b[i].schedule)
		}
	}
	if !s.Exhausted() || !strings.HasPrefix(s.Status(), "exhausted") {
		t.Fatalf("exhausted=%v status %q", s.Exhausted(), s.Status())
	}
}

func TestDFSRBPrunesBelowThreshold(t *testing.T) {
	// Ratio 0 below depth 2: a pure depth bound. Every prefix of 2
	// branching points is explored exactly once (the executions are then
	// completed at random), and the search then moves on.
	s := NewDFSRBConfig(Options{Seed: 1}, DFSRBConfig{Thresholds: []int{2}, Ratio: RatioConst, C: 0, Jump: JumpFixed, Budget: 1000})
	outs := explore(t, indep(3, 2), s, 1000)
	prefixes := map[string]int{}
	n := 0
	for _, o := range outs {
		f := strings.Fields(o.schedule)
		prefixes[strings.Join(f[:3], " ")]++
		n++
		if n == 9 {
			break
		}
	}
	// Level 1 has 3 children, level 2 has 3: 9 prefixes.
	if len(prefixes) != 9 {
		t.Fatalf("first 9 executions cover %d two-point prefixes: %v", len(prefixes), prefixes)
	}
	if s.Exhausted() {
		t.Fatal("a pruned search claims exhaustion")
	}
}

func TestDFSRBDeterministicAndFinds(t *testing.T) {
	run := func(seed int64) []outcome {
		// The default thresholds are too deep for this bug, whose
		// preemption is at the second branching point: DFS explores the
		// deep alternatives first (see docs/strategies.md).
		cfg := DefaultDFSRB
		cfg.Thresholds = []int{2, 4}
		cfg.Budget = 1000
		return explore(t, reorder(5), NewDFSRBConfig(Options{Seed: seed}, cfg), 2000)
	}
	a, b := run(3), run(3)
	for i := range a {
		if a[i].schedule != b[i].schedule {
			t.Fatalf("seed 3 gives different schedule %d", i)
		}
	}
	found := 0
	for seed := int64(0); seed < 10; seed++ {
		if firstBug(run(seed)) > 0 {
			found++
		}
	}
	if found < 8 {
		t.Fatalf("default dfsrb found reorder_5 for %d of 10 seeds", found)
	}
}

func TestDFSRBCyclesThresholds(t *testing.T) {
	cfg := DefaultDFSRB
	cfg.Budget = 3
	s := NewDFSRBConfig(Options{Seed: 1}, cfg)
	explore(t, indep(4, 4), s, 16)
	if !strings.Contains(s.Status(), "cycle 2") {
		t.Fatalf("after 16 executions of budget 3 over 5 thresholds: %q", s.Status())
	}
}

func TestDFSRBRandomOrderComplete(t *testing.T) {
	// A random child order keeps the search complete above the threshold:
	// the same 90 schedules, in another order.
	s := NewDFSRBConfig(Options{Seed: 5}, DFSRBConfig{Thresholds: []int{1000}, RandomOrder: true})
	a := explore(t, indep(3, 2), s, 1000)
	b := explore(t, indep(3, 2), NewDFS(Options{}), 1000)
	if len(a) != 90 || len(distinct(a)) != 90 || !s.Exhausted() {
		t.Fatalf("%d schedules, %d distinct, exhausted %v", len(a), len(distinct(a)), s.Exhausted())
	}
	same := true
	for i := range a {
		if a[i].schedule != b[i].schedule {
			same = false
		}
	}
	if same {
		t.Fatal("random order gave Maple's order")
	}
}

func TestDFSRBResume(t *testing.T) {
	// A small budget makes the search change threshold and cycle within
	// the run, with pruned executions completed at random.
	cfgs := []DFSRBConfig{
		{Thresholds: []int{2, 4}, Budget: 7},
		{Thresholds: []int{1, 3}, Budget: 5, RandomOrder: true, Jump: JumpRandom},
		{Thresholds: []int{1000}},
	}
	for _, c := range cfgs {
		mk := func() Strategy { return NewDFSRBConfig(Options{Seed: 4}, c) }
		checkResume(t, mk, func() *prog { return indep(3, 2) }, 150, 0, 1, 6, 7, 8, 40, 89, 90, 149)
	}
	// Exhausted: the resumed search stays exhausted.
	s := NewDFSRBConfig(Options{Seed: 4}, DFSRBConfig{Thresholds: []int{1000}})
	explore(t, indep(2, 2), s, 1000)
	var buf bytes.Buffer
	if err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	r := NewDFSRBConfig(Options{Seed: 4}, DFSRBConfig{Thresholds: []int{1000}})
	if err := r.Load(&buf); err != nil {
		t.Fatal(err)
	}
	if r.NewExecution() || !r.Exhausted() {
		t.Fatal("a resumed exhausted search went on")
	}
	if err := NewDFSRB(Options{Seed: 4}).Load(strings.NewReader(`{"format":1,"strategy":"dfsrb","thresholds":[1000]}`)); err == nil {
		t.Fatal("the default configuration loaded a state of other thresholds")
	}
}
