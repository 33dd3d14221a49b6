package strategies

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// simKey is a key location of a simulated program: step pc of thread
// tid.
type simKey struct{ tid, pc int }

// simGuide writes the guide of a simulated program (prog.locate): each
// step is a scheduling point on a line of its own, so a thread at step pc
// is k-pc steps from its step k, and cannot reach another thread's steps.
// seqs lists key sequences as indices into keys.
func simGuide(t testing.TB, p *prog, keys []simKey, seqs ...[]int) string {
	t.Helper()
	return writeSimGuide(t, simGuideOf(p, keys, seqs...))
}

func simGuideOf(p *prog, keys []simKey, seqs ...[]int) *Guide {
	g := &Guide{Format: GuideFormat, ID: fmt.Sprintf("sim %v %v", keys, seqs), Files: []string{"sim.go"}}
	line := map[simKey]int{}
	for tid, ops := range p.threads {
		for pc := range ops {
			line[simKey{tid, pc}] = len(g.Lines)
			g.Lines = append(g.Lines, GuideLine{File: 0, Line: 1000*tid + pc, ExitPark: int32(len(ops) - pc), ExitAfter: -1})
		}
	}
	for _, k := range keys {
		gk := GuideKey{Pos: fmt.Sprintf("T%d:%s", k.tid, p.threads[k.tid][k.pc].name)}
		for pc := 0; pc <= k.pc; pc++ {
			gk.Dist = append(gk.Dist, int32(line[simKey{k.tid, pc}]), int32(k.pc-pc), -1, -1)
		}
		if k.tid != 0 {
			// Thread 0's first step creates the others: from there,
			// as the static analysis's spawn edges say, every key
			// is within reach.
			gk.Dist = append(gk.Dist, int32(line[simKey{0, 0}]), int32(1+k.pc), -1, -1)
		}
		g.Keys = append(g.Keys, gk)
	}
	for i, s := range seqs {
		g.Seqs = append(g.Seqs, GuideSeq{Kind: "failure", What: fmt.Sprintf("seq %d", i), Keys: s})
	}
	return g
}

func writeSimGuide(t testing.TB, g *Guide) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "guide.json")
	if err := WriteGuide(path, g); err != nil {
		t.Fatal(err)
	}
	return path
}

// reorderGuide is reorder(x) with the thesis's two key locations: a
// setter's first write, then the checker's last read.
func reorderGuide(t testing.TB, x int) (*prog, string) {
	p := reorder(x)
	p.locate = true
	keys := []simKey{{x, 3}}
	var seqs [][]int
	for id := 1; id < x; id++ {
		keys = append(keys, simKey{id, 0})
		seqs = append(seqs, []int{len(keys) - 1, 0})
	}
	return p, simGuide(t, p, keys, seqs...)
}

// Guided search finds reorder's bug at once, however many setters there
// are, where random scheduling needs many schedules (SCTBench: not within
// 100,000 for X = 10; this model is shorter): on reorder_10 and reorder_20,
// random's median over the same seeds is at least ten times guided
// search's worst.
func TestGuidedReorder(t *testing.T) {
	const seeds, limit = 10, 200
	for _, x := range []int{3, 10, 20} {
		p, path := reorderGuide(t, x)
		worst := 0
		var random []int
		for seed := int64(0); seed < seeds; seed++ {
			g := NewGuided(Options{Seed: seed, Guide: path})
			outs := explore(t, p, g, 50)
			fb := firstBug(outs)
			if fb == 0 || fb > 3 {
				t.Errorf("reorder_%d seed %d: first bug at %d, want within 3 schedules; %s", x, seed, fb, g.Status())
			}
			worst = max(worst, fb)
			if x >= 10 {
				rb := firstBug(explore(t, p, NewRandom(Options{Seed: seed}), limit))
				if rb == 0 {
					rb = limit + 1
				}
				random = append(random, rb)
			}
		}
		if x < 10 {
			continue
		}
		sort.Ints(random)
		if med := random[seeds/2]; med < 10*worst {
			t.Errorf("reorder_%d: random's median first bug %d (of %v) is not ten times guided search's worst, %d", x, med, random, worst)
		}
	}
}

// The same seed explores the same schedules.
func TestGuidedDeterministic(t *testing.T) {
	p, path := reorderGuide(t, 5)
	run := func() []string {
		g := NewGuided(Options{Seed: 7, Guide: path})
		var s []string
		for _, o := range explore(t, p, g, 30) {
			s = append(s, o.schedule)
		}
		return s
	}
	a, b := run(), run()
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("two runs with the same seed differ")
	}
}

// When the greedy descent passes the bug by, a backtrack point takes the
// other goroutine: here the checker, closest to its check, runs first
// and sees nothing wrong; the bug needs the writer first.
func TestGuidedBacktracks(t *testing.T) {
	const vx = 0
	p := &prog{nvars: 1, locate: true, threads: [][]op{
		{create("go", 1, 2), join("join", 1, 2)},
		{nop("prepare"), set("x=1", vx, 1)},
		{assertOp("check x==0", func(v []int) bool { return v[vx] == 0 })},
	}}
	path := simGuide(t, p, []simKey{{2, 0}}, []int{0})
	for seed := int64(0); seed < 5; seed++ {
		g := NewGuided(Options{Seed: seed, Guide: path})
		outs := explore(t, p, g, 10)
		if outs[0].failed {
			t.Fatalf("seed %d: the greedy descent ran the writer first: %s", seed, outs[0].schedule)
		}
		if fb := firstBug(outs); fb == 0 || fb > 5 {
			t.Errorf("seed %d: first bug at %d, want within 5 (the third descent, after two random walks)", seed, fb)
		}
	}
}

// A goroutine that yielded is passed over while another can run.
func TestGuidedYield(t *testing.T) {
	p := &prog{nvars: 1, locate: true, threads: [][]op{
		{create("go", 1, 2), join("join", 1, 2)},
		{{name: "spin", yield: true}, {name: "spin", yield: true}, {name: "spin", yield: true}, nop("target")},
		{nop("a"), nop("b"), nop("c"), nop("d"), nop("e"), nop("f")},
	}}
	path := simGuide(t, p, []simKey{{1, 3}}, []int{0})
	g := NewGuided(Options{Seed: 1, Guide: path})
	g.NewExecution()
	o := p.run(g, 100)
	// T1 is nearest to the target, but once it yielded T2 runs, to its
	// end.
	if !strings.Contains(o.schedule, "T1:spin T2:a T2:b T2:c T2:d T2:e T2:f T1:spin") {
		t.Errorf("schedule %s: T1 was chosen again after it yielded, while T2 could run", o.schedule)
	}
}

// Sequences the test cannot reach are left out; with none, guided search
// is a random walk and asks for no positions.
func TestGuidedSurvey(t *testing.T) {
	p, path := reorderGuide(t, 3)
	other := &prog{locate: true, file: "other.go", threads: [][]op{{nop("x"), nop("y")}}}
	g := NewGuided(Options{Seed: 1, Guide: path})
	explore(t, other, g, 3)
	if g.Locates() {
		t.Errorf("Locates after finding no reachable sequence")
	}
	if st := g.Status(); !strings.Contains(st, "no target reachable") {
		t.Errorf("status %q", st)
	}
	g = NewGuided(Options{Seed: 1, Guide: path})
	explore(t, p, g, 1)
	if st := g.Status(); !strings.Contains(st, "2 key sequences reachable") {
		t.Errorf("status %q", st)
	}
	g = NewGuided(Options{Seed: 1})
	if g.Locates() {
		t.Errorf("Locates without a guide")
	}
	explore(t, p, g, 2)
	if st := g.Status(); !strings.Contains(st, "no guide") {
		t.Errorf("status %q", st)
	}
	g = NewGuided(Options{Seed: 1, Guide: filepath.Join(t.TempDir(), "missing.json")})
	if st := g.Status(); !strings.Contains(st, "no guide (") {
		t.Errorf("status %q", st)
	}
}

// A search saved after some executions and loaded into a new strategy
// takes the decisions the uninterrupted one takes.
func TestGuidedSaveLoad(t *testing.T) {
	const vx = 0
	p := &prog{nvars: 1, locate: true, threads: [][]op{
		{create("go", 1, 2, 3), join("join", 1, 2, 3)},
		{nop("prepare"), set("x=1", vx, 1), nop("after")},
		{nop("p"), nop("q"), nop("r")},
		{nop("check"), nop("check2")},
	}}
	path := simGuide(t, p, []simKey{{1, 1}, {3, 1}}, []int{0, 1}, []int{1})
	for _, n := range []int{0, 1, 5, 12} {
		a := NewGuided(Options{Seed: 3, Guide: path})
		explore(t, p, a, n)
		var buf bytes.Buffer
		if err := a.Save(&buf); err != nil {
			t.Fatal(err)
		}
		b := NewGuided(Options{Seed: 3, Guide: path})
		if err := b.Load(bytes.NewReader(buf.Bytes())); err != nil {
			t.Fatalf("after %d: %v", n, err)
		}
		oa, ob := explore(t, p, a, 20), explore(t, p, b, 20)
		for i := range oa {
			if oa[i].schedule != ob[i].schedule {
				t.Fatalf("saved after %d executions: execution %d differs:\n%s\n%s", n, n+i+1, oa[i].schedule, ob[i].schedule)
			}
		}
		if a.Status() != b.Status() {
			t.Errorf("status %q != %q", a.Status(), b.Status())
		}
	}
	// Another guide: refused.
	other := simGuide(t, p, []simKey{{1, 1}}, []int{0})
	a := NewGuided(Options{Seed: 3, Guide: path})
	explore(t, p, a, 2)
	var buf bytes.Buffer
	a.Save(&buf)
	if err := NewGuided(Options{Seed: 3, Guide: other}).Load(&buf); err == nil {
		t.Errorf("a search saved with another guide was loaded")
	}
}

// The backtrack set never holds more than its cap.
func TestGuidedBacktrackCap(t *testing.T) {
	p, path := reorderGuide(t, 20)
	g := NewGuided(Options{Seed: 1, Guide: path, Backtrack: 7})
	explore(t, p, g, 30)
	for _, tr := range g.trials {
		if len(tr.back) > 7 {
			t.Fatalf("trial %d holds %d backtrack points, cap 7", tr.seq, len(tr.back))
		}
	}
}

// The distance of a goroutine goes down its stack: from the innermost
// frame, or from its function's end on to the return point in the caller
// (e-FCA), whichever is least; unknown frames are skipped.
func TestGuideDistance(t *testing.T) {
	g := &Guide{Format: GuideFormat, Files: []string{"a.go"}, Lines: []GuideLine{
		{File: 0, Line: 10, ExitPark: 3, ExitAfter: -1},              // 0: in the callee
		{File: 0, Line: 20, ExitPark: 9, ExitAfter: 2, Call: true},   // 1: the call in the caller
		{File: 0, Line: 30, ExitPark: -1, ExitAfter: -1, Call: true}, // 2: never returns
		{File: 0, Line: 40, ExitPark: 1, ExitAfter: 1, Call: true},   // 3: a go statement's line
	}, Keys: []GuideKey{{Pos: "a.go:25", Dist: []int32{1, -1, 4, -1, 3, -1, -1, 6}}}}
	x := newGuideIndex(g)
	k := x.key(0)
	f := func(line int) Frame { return Frame{File: "a.go", Line: line} }
	cases := []struct {
		op     string
		frames []Frame
		want   int32
	}{
		{"write", []Frame{f(10), f(20)}, 3 + 4},
		{"write", []Frame{f(10), f(99), f(20)}, 3 + 4}, // an unknown frame in between
		{"write", []Frame{f(10)}, inf},
		{"write", []Frame{f(20)}, inf}, // parked at line 20: no park distance
		{"start", []Frame{f(40)}, 6},
		{"start", []Frame{f(10)}, inf},
		{"write", []Frame{f(30), f(20)}, inf}, // line 30 never returns
	}
	for _, c := range cases {
		if got := x.distance(k, c.op, c.frames); got != c.want {
			t.Errorf("%s %v: distance %d, want %d", c.op, c.frames, got, c.want)
		}
	}
}

// BenchmarkGuidedNext measures guided search's decisions on reorder(20)
// with its guide (positions from the simulator): ranking, backtrack
// points, the survey of the first execution.
func BenchmarkGuidedNext(b *testing.B) {
	p, path := reorderGuide(b, 20)
	g := NewGuided(Options{Seed: 1, Guide: path})
	decisions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.NewExecution()
		s := p.run(g, 10000)
		decisions += len(strings.Fields(s.schedule))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
}

// Options.Walk: by default every other execution is a random walk; with
// Walk < 0 none is (the thesis's guided search), with Walk n every n-th.
func TestGuidedWalks(t *testing.T) {
	p, path := reorderGuide(t, 5)
	for _, c := range []struct {
		walk int
		want string // walk (w) or descent (d) of executions 2..9
	}{
		{0, "wdwdwdwd"},
		{-1, "dddddddd"},
		{3, "dwddwddw"},
	} {
		g := NewGuided(Options{Seed: 1, Guide: path, Walk: c.walk})
		var got []byte
		for i := 1; i <= 9 && g.NewExecution(); i++ {
			if i > 1 {
				got = append(got, map[bool]byte{true: 'w', false: 'd'}[g.cur.random])
				if g.Locates() == g.cur.random {
					t.Errorf("Walk %d, execution %d: walk %v, asks for positions %v", c.walk, i, g.cur.random, g.Locates())
				}
			}
			p.run(g, 10000)
		}
		if string(got) != c.want {
			t.Errorf("Walk %d: %s, want %s", c.walk, got, c.want)
		}
		if st := g.Status(); strings.Contains(st, "no random walks") != (c.walk < 0) {
			t.Errorf("Walk %d: status %q", c.walk, st)
		}
	}
}

// The thesis's refinement: the failure needs two writes, of a value and
// of a flag, by two goroutines; the sequence knows one (value, then the
// check). The greedy descent runs the value's writer, then the checker,
// which finds the flag unset and returns: no goroutine can reach the
// check any more, the descent is stuck. The flag's write, one of the
// check's keys before it, is inserted, and the next descent finds the bug.
func TestGuidedRefinement(t *testing.T) {
	const vval, vflag = 0, 1
	p := &prog{nvars: 2, locate: true, threads: [][]op{
		{create("go", 1, 2, 3), join("join", 1, 2, 3)},
		{nop("prepare"), set("value=1", vval, 1)},
		{nop("p1"), nop("p2"), nop("p3"), nop("p4"), set("flag=1", vflag, 1)},
		{{name: "read flag", do: func(s *sim, th *thread) {
			if s.vars[vflag] == 0 {
				th.pc = 3 // returns
			}
		}}, nop("read value"), assertOp("check", func(v []int) bool { return v[vval] == 0 }), nop("end")},
	}}
	keys := []simKey{{1, 1}, {2, 4}, {3, 2}}
	g := simGuideOf(p, keys, []int{0, 2})
	g.Keys[2].Before = []int{0, 1}
	path := writeSimGuide(t, g)
	for _, walk := range []int{0, -1} {
		for seed := int64(0); seed < 5; seed++ {
			gs := NewGuided(Options{Seed: seed, Guide: path, Walk: walk})
			outs := explore(t, p, gs, 12)
			fb := firstBug(outs)
			if fb == 0 || fb > 5 {
				t.Errorf("walk %d seed %d: first bug at %d, want within 5: %s", walk, seed, fb, gs.Status())
			}
			if !strings.Contains(gs.Status(), "1 keys inserted by refinement") {
				t.Errorf("walk %d seed %d: %s", walk, seed, gs.Status())
			}
			if tr := gs.trials[0]; fmt.Sprint(tr.ks) != "[0 1 2]" {
				t.Errorf("walk %d seed %d: refined sequence %v, want [0 1 2]", walk, seed, tr.ks)
			}
		}
	}
	// Saved and resumed across the refinement, the search goes on alike.
	for _, n := range []int{1, 2, 3} {
		a := NewGuided(Options{Seed: 2, Guide: path, Walk: -1})
		explore(t, p, a, n)
		var buf bytes.Buffer
		if err := a.Save(&buf); err != nil {
			t.Fatal(err)
		}
		b := NewGuided(Options{Seed: 2, Guide: path, Walk: -1})
		if err := b.Load(bytes.NewReader(buf.Bytes())); err != nil {
			t.Fatal(err)
		}
		oa, ob := explore(t, p, a, 6), explore(t, p, b, 6)
		for i := range oa {
			if oa[i].schedule != ob[i].schedule {
				t.Fatalf("saved after %d: execution %d differs", n, n+i+1)
			}
		}
	}
}
