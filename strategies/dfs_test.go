package strategies

import (
	"strings"
	"testing"
)

func TestDFSEnumeratesInterleavings(t *testing.T) {
	// Two threads of two steps: C(4,2) = 6 interleavings; three threads of
	// two steps: 6!/(2!2!2!) = 90; two threads of three: C(6,3) = 20.
	for _, c := range []struct{ n, k, want int }{{2, 2, 6}, {3, 2, 90}, {2, 3, 20}, {1, 3, 1}} {
		d := NewDFS(Options{})
		outs := explore(t, indep(c.n, c.k), d, 100000)
		if len(outs) != c.want || len(distinct(outs)) != c.want {
			t.Errorf("%dx%d: %d executions, %d distinct, want %d", c.n, c.k, len(outs), len(distinct(outs)), c.want)
		}
		if !d.Exhausted() || d.NewExecution() {
			t.Errorf("%dx%d: not exhausted after the whole tree", c.n, c.k)
		}
		if want := "exhausted: "; !strings.HasPrefix(d.Status(), want) {
			t.Errorf("status %q", d.Status())
		}
	}
}

func TestDFSFirstScheduleIsRoundRobin(t *testing.T) {
	outs := explore(t, fig1(), NewDFS(Options{}), 1)
	if want := "T0:a T1:b T1:c T2:d T3:e"; outs[0].schedule != want {
		t.Fatalf("first schedule %q, want %q", outs[0].schedule, want)
	}
	// The round-robin order wraps from the current goroutine: after T2
	// finishes, T3 then T1.
	p := fig1()
	p.threads[2] = []op{nop("d1"), nop("d2")}
	p.threads[1] = []op{{name: "b", guard: func(s *sim, t *thread) bool { return s.th[2].pc > 0 }}, nop("c")}
	outs = explore(t, p, NewDFS(Options{}), 1)
	if want := "T0:a T2:d1 T2:d2 T3:e T1:b T1:c"; outs[0].schedule != want {
		t.Fatalf("first schedule %q, want %q", outs[0].schedule, want)
	}
}

func TestDFSCaseBranches(t *testing.T) {
	// One thread with a three-way select, then a second thread: the case
	// choices multiply the schedules.
	p := &prog{threads: [][]op{
		{create("go", 1), {name: "select", cases: 3}},
		{nop("x")},
	}}
	outs := explore(t, p, NewDFS(Options{}), 1000)
	// Interleavings of T0:select with T1:x = 2, times 3 cases.
	if len(outs) != 6 || len(distinct(outs)) != 6 {
		t.Fatalf("%d executions, %d distinct, want 6: %v", len(outs), len(distinct(outs)), distinct(outs))
	}
	if want := "T0:go T0:select=0 T1:x"; outs[0].schedule != want {
		t.Fatalf("first %q want %q", outs[0].schedule, want)
	}
}

func TestDFSFindsFig1Bug(t *testing.T) {
	outs := explore(t, fig1(), NewDFS(Options{}), 100000)
	if firstBug(outs) == 0 {
		t.Fatal("dfs missed the assertion failure of Fig. 1")
	}
}

func TestDFSYieldForcesSwitch(t *testing.T) {
	// T1 spins on a flag that T2 sets, yielding: without the forced switch
	// the DFS tree would be infinite (the run hits the step limit).
	spin := op{name: "spin", yield: true, do: func(s *sim, t *thread) {
		if s.vars[0] == 0 {
			t.pc--
		}
	}}
	p := &prog{nvars: 1, threads: [][]op{
		{create("go", 1, 2)},
		{spin},
		{set("set", 0, 1)},
	}}
	d := NewDFS(Options{})
	outs := explore(t, p, d, 1000)
	if !d.Exhausted() {
		t.Fatalf("not exhausted after %d executions", len(outs))
	}
	for _, o := range outs {
		if o.deadlock {
			t.Fatalf("schedule did not terminate: %s", o.schedule)
		}
	}
}

func TestDFSSurvivesNondeterminism(t *testing.T) {
	// A program outside gosct's control: every other execution, thread 2
	// has one more step. The search must still end and say it diverged.
	runs := 0
	mk := func() *prog {
		runs++
		p := indep(2, 2)
		if runs%2 == 0 {
			p.threads[2] = append(p.threads[2], nop("extra"))
		}
		return p
	}
	d := NewDFS(Options{})
	n := 0
	for n < 10000 && d.NewExecution() {
		mk().run(d, 1000)
		n++
	}
	if n == 10000 {
		t.Fatal("search did not end")
	}
	if !strings.Contains(d.Status(), "divergence") {
		t.Fatalf("status %q does not report the divergence", d.Status())
	}
}
