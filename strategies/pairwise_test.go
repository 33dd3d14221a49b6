package strategies

import (
	"path/filepath"
	"strings"
	"testing"
)

func pairwiseOn(t *testing.T, frags []Fragment) *Pairwise {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fragments.json")
	if err := WriteFragments(path, &Fragments{Frags: frags}); err != nil {
		t.Fatal(err)
	}
	return NewPairwise(Options{Fragments: path})
}

// A lost update: T1 and T2 each read x and write it plus one; the change
// is T1's (its lines are the fragment). The pairwise search finds the
// interleaving where T2 runs inside T1's fragment, explores fewer
// schedules than DFS, is exhausted, and preempts nobody outside the
// fragment: T2 and T3 never lose the processor while they can run,
// unless T1 is in its fragment or waits at its entry.
func TestPairwiseLostUpdate(t *testing.T) {
	incr := func(name string) []op {
		return []op{
			{name: name + "read", do: func(s *sim, th *thread) { th.regs[0] = s.vars[vx] }},
			{name: name + "write", do: func(s *sim, th *thread) { s.vars[vx] = th.regs[0] + 1 }},
		}
	}
	p := &prog{locate: true, nvars: 1, threads: [][]op{
		{create("go", 1, 2, 3), join("join", 1, 2, 3), assertOp("check", func(v []int) bool { return v[vx] == 3 })},
		incr("a"),
		incr("b"),
		incr("c"),
	}}
	// T1's two steps are its lines 1000 and 1001.
	st := pairwiseOn(t, []Fragment{{File: "sim.go", From: 1000, To: 1001}})
	outs := explore(t, p, st, 10000)
	if !st.Exhausted() {
		t.Fatalf("not exhausted after %d executions: %s", len(outs), st.Status())
	}
	if firstBug(outs) < 0 {
		t.Fatalf("no lost update in %d executions", len(outs))
	}
	full := explore(t, p, NewDFS(Options{}), 10000)
	if len(outs) >= len(full) {
		t.Errorf("pairwise ran %d executions, DFS %d", len(outs), len(full))
	}
	for _, o := range outs {
		// Outside T1's fragment nobody is preempted: T2 and T3 are not
		// both interrupted between their read and write in one
		// schedule (each is, as Gj, in its own pair's search).
		cut := 0
		for _, x := range []string{"T2:bread T2:bwrite", "T3:cread T3:cwrite"} {
			if !strings.Contains(o.schedule, x) {
				cut++
			}
		}
		if cut > 1 {
			t.Errorf("T2 and T3 both preempted: %s", o.schedule)
		}
	}
}

// The paper's happens-before extension: T2 takes a lock while T1 (the fragment runner)
// could run but before T1 reaches its fragment; the search also runs T1
// first there, which puts T2's lock after the fragment's start: the
// deadlock of T1, T2 and T3 (a, b, c taken in a cycle) then shows in
// the pair (T1, T3), whose own interleavings alone never reach it.
func TestPairwiseHBExtension(t *testing.T) {
	const a, b, c = 1, 2, 3
	flag := op{name: "wait", guard: func(s *sim, th *thread) bool { return s.vars[vx] == 1 }}
	p := &prog{locate: true, nvars: 1, threads: [][]op{
		{create("go", 1, 2, 3)},
		{flag, nop("start"), lock("mutex lock", a), lock("mutex lock", b), unlock("mutex unlock", b), unlock("mutex unlock", a)},
		{set("set", vx, 1), lock("mutex lock", b), lock("mutex lock", c), unlock("mutex unlock", c), unlock("mutex unlock", b)},
		{lock("mutex lock", c), lock("mutex lock", a), unlock("mutex unlock", a), unlock("mutex unlock", c)},
	}}
	// T1's lines 1002 (lock a) to 1005 (unlock a).
	frag := []Fragment{{File: "sim.go", From: 1002, To: 1005}}
	st := pairwiseOn(t, frag)
	outs := explore(t, p, st, 10000)
	if !st.Exhausted() {
		t.Fatalf("not exhausted: %s", st.Status())
	}
	var dead []string
	for _, o := range outs {
		if o.deadlock {
			dead = append(dead, o.schedule)
		}
	}
	if len(dead) == 0 {
		t.Fatalf("no deadlock in %d executions", len(outs))
	}
	// Without the extension, T2 (a third goroutine in the pair (T1,
	// T3), Gj in (T1, T2)) runs its locks before T1 can start the
	// fragment, and no deadlock shows.
	st = pairwiseOn(t, frag)
	st.noHB = true
	for _, o := range explore(t, p, st, 10000) {
		if o.deadlock {
			t.Fatalf("a deadlock without the extension: %s", o.schedule)
		}
	}
}

// Without a fragments file the strategy explores the one schedule without
// preemption and says why.
func TestPairwiseNoFragments(t *testing.T) {
	st := NewPairwise(Options{})
	p := &prog{locate: true, threads: [][]op{{create("go", 1)}, {nop("x")}}}
	if outs := explore(t, p, st, 100); len(outs) != 1 {
		t.Errorf("%d executions, want 1", len(outs))
	}
	if !strings.Contains(st.Status(), "--since") {
		t.Errorf("status %q", st.Status())
	}
}

// The extension when Gi waits at its entry for a Gj that does not exist
// yet (the janitor-quiet commit of tools/sincehist): T1 reaches its
// fragment (lock a, then b) early and waits there for T4, which T3
// creates only after T2 ran its critical section (b, then c); T4 takes c,
// then a. The lock cycle needs T2's section after the fragment's start,
// while T2's events were scheduled after T1 reached the entry: the
// extension looks back from where the fragment starts, and holds T2 back
// rather than running T1 at T2's lock (T4 would not exist yet). T5 and T6
// take locks of their own: goroutines the change does not involve must
// not multiply the search (they did when every goroutine could run
// wherever one blocked: 3969 executions, against 80).
func TestPairwiseHBExtensionLateGj(t *testing.T) {
	const a, b, c, d, e = 1, 2, 3, 4, 5
	flag := op{name: "wait", guard: func(s *sim, th *thread) bool { return s.vars[vx] == 1 }}
	other := func(m int) []op {
		return []op{lock("mutex lock", m), unlock("mutex unlock", m), lock("mutex lock", m), unlock("mutex unlock", m)}
	}
	p := &prog{locate: true, nvars: 1, threads: [][]op{
		{create("go", 1, 2, 3, 5, 6), set("set", vx, 1), nop("x"), nop("y")},
		{flag, lock("mutex lock", a), lock("mutex lock", b), unlock("mutex unlock", b), unlock("mutex unlock", a)},
		{lock("mutex lock", b), lock("mutex lock", c), unlock("mutex unlock", c), unlock("mutex unlock", b)},
		{create("go", 4)},
		{lock("mutex lock", c), lock("mutex lock", a), unlock("mutex unlock", a), unlock("mutex unlock", c)},
		other(d), other(e),
	}}
	// T1's lines 1001 (lock a) to 1004 (unlock a).
	frag := []Fragment{{File: "sim.go", From: 1001, To: 1004}}
	st := pairwiseOn(t, frag)
	outs := explore(t, p, st, 10000)
	if !st.Exhausted() {
		t.Fatalf("not exhausted: %s", st.Status())
	}
	t.Logf("%d executions: %s", len(outs), st.Status())
	if len(outs) > 400 {
		t.Errorf("%d executions to exhaust the pairs: the goroutines not involved multiply the search", len(outs))
	}
	found := false
	for _, o := range outs {
		found = found || o.deadlock
	}
	if !found {
		t.Fatalf("no deadlock in %d executions: %s", len(outs), st.Status())
	}
	st = pairwiseOn(t, frag)
	st.noHB = true
	for _, o := range explore(t, p, st, 10000) {
		if o.deadlock {
			t.Fatalf("a deadlock without the extension: %s", o.schedule)
		}
	}
}

// A three-goroutine bug behind a quiet goroutine: T1 (the fragment runner)
// waits for Q, which takes no part in the bug, to send it a value; while
// T1 waits, T2 runs its critical section (b, then c). T2's events were
// scheduled while T1 could not run, yet nothing orders them before T1's
// start (T1 synchronizes with Q only): the vector clocks put them in E,
// and the variant with T2's section after lock b moved after the
// fragment shows the deadlock of T1 (a, b), T2 (b, c) and T4 (c, a).
func TestPairwiseHBBehindQuiet(t *testing.T) {
	const a, b, c, ch = 1, 2, 3, 9
	recv := op{name: "chan recv", guard: func(s *sim, th *thread) bool { return s.vars[vx] == 1 },
		acc: []Access{{Op: OpRecv, Obj: lockObj(ch)}}}
	send := op{name: "chan send", do: func(s *sim, th *thread) { s.vars[vx] = 1 },
		acc: []Access{{Op: OpSend, Obj: lockObj(ch)}}}
	p := &prog{locate: true, nvars: 1, threads: [][]op{
		{create("go", 1, 2, 3, 4)},
		{recv, lock("mutex lock", a), lock("mutex lock", b), unlock("mutex unlock", b), unlock("mutex unlock", a)},
		{lock("mutex lock", b), lock("mutex lock", c), unlock("mutex unlock", c), unlock("mutex unlock", b)},
		{nop("work"), send},
		{lock("mutex lock", c), lock("mutex lock", a), unlock("mutex unlock", a), unlock("mutex unlock", c)},
	}}
	// T1's lines 1001 (lock a) to 1004 (unlock a).
	frag := []Fragment{{File: "sim.go", From: 1001, To: 1004}}
	st := pairwiseOn(t, frag)
	outs := explore(t, p, st, 10000)
	if !st.Exhausted() {
		t.Fatalf("not exhausted: %s", st.Status())
	}
	found := false
	for _, o := range outs {
		found = found || o.deadlock
	}
	if !found {
		t.Fatalf("no deadlock in %d executions: %s", len(outs), st.Status())
	}
	st = pairwiseOn(t, frag)
	st.noHB = true
	for _, o := range explore(t, p, st, 10000) {
		if o.deadlock {
			t.Fatalf("a deadlock without the extension: %s", o.schedule)
		}
	}
}

// A cycle of four locks over four goroutines needs two third goroutines'
// events after the fragment at once: T2 holding b and T3 holding c when
// T1 (a, then b) and T4 (d, then a) run. Moving one goroutine's events at
// a time never shows it; the combinations of the paper's explored set do.
func TestPairwiseHBSubsets(t *testing.T) {
	const a, b, c, d = 1, 2, 3, 4
	flag := op{name: "wait", guard: func(s *sim, th *thread) bool { return s.vars[vx] == 1 }}
	p := &prog{locate: true, nvars: 1, threads: [][]op{
		{create("go", 1, 2, 3, 4)},
		{flag, lock("mutex lock", a), lock("mutex lock", b), unlock("mutex unlock", b), unlock("mutex unlock", a)},
		{lock("mutex lock", b), lock("mutex lock", c), unlock("mutex unlock", c), unlock("mutex unlock", b)},
		{set("set", vx, 1), lock("mutex lock", c), lock("mutex lock", d), unlock("mutex unlock", d), unlock("mutex unlock", c)},
		{lock("mutex lock", d), lock("mutex lock", a), unlock("mutex unlock", a), unlock("mutex unlock", d)},
	}}
	frag := []Fragment{{File: "sim.go", From: 1001, To: 1004}}
	st := pairwiseOn(t, frag)
	outs := explore(t, p, st, 10000)
	if !st.Exhausted() {
		t.Fatalf("not exhausted: %s", st.Status())
	}
	var dead []string
	for _, o := range outs {
		if o.deadlock {
			dead = append(dead, o.schedule)
		}
	}
	if len(dead) == 0 {
		t.Fatalf("no deadlock in %d executions: %s", len(outs), st.Status())
	}
	t.Logf("%d executions, %d deadlocks, e.g. %s; %s", len(outs), len(dead), dead[0], st.Status())
	st = pairwiseOn(t, frag)
	st.hbOne = true
	for _, o := range explore(t, p, st, 10000) {
		if o.deadlock {
			t.Fatalf("a deadlock moving one goroutine's events at a time: %s", o.schedule)
		}
	}
}
