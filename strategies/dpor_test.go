package strategies

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// classes returns the Mazurkiewicz traces of outs and how many
// executions reached each.
func classes(outs []outcome) map[string]int {
	m := map[string]int{}
	for _, o := range outs {
		m[o.class]++
	}
	return m
}

// exhaust runs st on p until it is exhausted (failing the test past
// limit executions).
func exhaust(t *testing.T, p *prog, st Strategy, limit int) []outcome {
	t.Helper()
	outs := explore(t, p, st, limit)
	if st.NewExecution() {
		t.Fatalf("not exhausted after %d executions", limit)
	}
	return outs
}

// writers is n threads each writing variable 0 once, created by thread 0
// in one step: n! traces.
func writers(n int) *prog {
	p := &prog{nvars: 1}
	var ids []int
	for i := 1; i <= n; i++ {
		ids = append(ids, i)
		p.threads = append(p.threads, nil)
	}
	p.threads = append([][]op{{create("go", ids...)}}, p.threads[:n]...)
	for i := 1; i <= n; i++ {
		p.threads[i] = []op{set(fmt.Sprintf("x=%d", i), 0, i)}
	}
	return p
}

// readers is one writer of x and n readers of x: each reader reads before
// or after the write, 2^n traces.
func readers(n int) *prog {
	p := &prog{nvars: 1}
	var ids []int
	for i := 1; i <= n+1; i++ {
		ids = append(ids, i)
	}
	p.threads = append(p.threads, []op{create("go", ids...)}, []op{set("x=1", 0, 1)})
	for i := 0; i < n; i++ {
		p.threads = append(p.threads, []op{{name: "r", acc: []Access{rd(0)}}})
	}
	return p
}

// seedFig3 is the example of Fig. 3 of the stateful DPOR paper (Cirisci et
// al., dpor_states.go): from the
// state, thread 1 writes o1; thread 2 reads o2, then o1; thread 3 reads
// o1. The write is ordered with each of the two reads of o1: 4 traces.
func seedFig3() *prog {
	const o1, o2 = 0, 1
	return &prog{nvars: 2, threads: [][]op{
		{create("go", 1, 2, 3)},
		{set("w o1", o1, 1)},
		{{name: "r o2", acc: []Access{rd(o2)}}, {name: "r o1", acc: []Access{rd(o1)}}},
		{{name: "r o1", acc: []Access{rd(o1)}}},
	}}
}

func TestDPORTextbookCounts(t *testing.T) {
	fact := func(n int) int {
		f := 1
		for i := 2; i <= n; i++ {
			f *= i
		}
		return f
	}
	cases := []struct {
		name string
		p    *prog
		want int // 0: as many as DFS finds
	}{
		{"independent 2x2", indep(2, 2), 1},
		{"independent 3x3", indep(3, 3), 1},
		{"2 writers", writers(2), 2},
		{"3 writers", writers(3), 6},
		{"4 writers", writers(4), 24},
		{"5 writers", writers(5), fact(5)},
		{"writer, 1 reader", readers(1), 2},
		{"writer, 3 readers", readers(3), 8},
		{"writer, 5 readers", readers(5), 32},
		{"seed 002 Fig. 3", seedFig3(), 4},
		{"SCTBench Fig. 1", fig1(), 0},
		{"SCTBench Fig. 2", fig2(), 0},
	}
	for _, c := range cases {
		c.p.goOn = true
		t.Run(c.name, func(t *testing.T) {
			// The number of traces, counted by brute force: every
			// schedule DFS explores, grouped by trace.
			all := classes(exhaust(t, c.p, NewDFS(Options{}), 1000000))
			if c.want > 0 && len(all) != c.want {
				t.Fatalf("DFS found %d traces, the program has %d", len(all), c.want)
			}
			d := NewDPOR(Options{})
			outs := exhaust(t, c.p, d, 100000)
			got := classes(outs)
			if len(outs) != len(all) || len(got) != len(all) {
				t.Errorf("dpor: %d schedules, %d traces (%d blocked); the program has %d traces", len(outs), len(got), d.blocked, len(all))
			}
			for k := range all {
				if got[k] == 0 {
					t.Errorf("dpor missed the trace %s", k)
				}
			}
			if !strings.HasPrefix(d.Status(), "exhausted: ") {
				t.Errorf("status %q", d.Status())
			}
		})
	}
}

// randomProg makes a small random program: thread 0 creates the others
// in one step; each step reads or writes one of a few variables, or locks
// or unlocks one of a few mutexes (locks are released before a thread
// ends, so that no schedule deadlocks... unless two are taken in
// different orders, which the test also wants).
func randomProg(r *rand.Rand) *prog {
	nth := 2 + r.Intn(3)
	nv := 1 + r.Intn(3)
	p := &prog{nvars: nv}
	var ids []int
	for i := 1; i <= nth; i++ {
		ids = append(ids, i)
	}
	p.threads = append(p.threads, []op{create("go", ids...)})
	for i := 1; i <= nth; i++ {
		var ops []op
		held := -1
		n := 1 + r.Intn(3)
		for k := 0; k < n; k++ {
			v := r.Intn(nv)
			switch x := r.Intn(10); {
			case x < 4:
				ops = append(ops, set(fmt.Sprintf("w%d", v), v, i*10+k))
			case x < 8:
				v := v
				ops = append(ops, op{name: fmt.Sprintf("r%d", v), acc: []Access{rd(v)},
					do: func(s *sim, t *thread) { t.regs[0] += s.vars[v] }})
			case held < 0:
				held = r.Intn(2)
				ops = append(ops, lock(fmt.Sprintf("L%d", held), held))
			default:
				ops = append(ops, unlock(fmt.Sprintf("U%d", held), held))
				held = -1
			}
		}
		if held >= 0 {
			ops = append(ops, unlock(fmt.Sprintf("U%d", held), held))
		}
		// The final state: what the thread read.
		ops = append(ops, op{name: "end", do: func(s *sim, t *thread) {}})
		p.threads = append(p.threads, ops)
	}
	return p
}

func TestDPORLargeIndependent(t *testing.T) {
	// 4 threads of 5 steps: 20!/(5!)^4 interleavings, one trace.
	d := NewDPOR(Options{})
	if outs := exhaust(t, indep(4, 5), d, 10); len(outs) != 1 {
		t.Fatalf("%d schedules, want 1", len(outs))
	}
	// 6 writers of one variable: 720 traces, and as many schedules.
	d = NewDPOR(Options{})
	p := writers(6)
	if outs := exhaust(t, p, d, 100000); len(outs) != 720 || len(classes(outs)) != 720 {
		t.Fatalf("%d schedules, %d traces, want 720", len(outs), len(classes(outs)))
	}
}

func TestDPORMatchesDFSOnRandomPrograms(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 60
	if testing.Short() || raceBuild {
		n = 8
	}
	compared, schedules, traces, blocked := 0, 0, 0, 0
	defer func() {
		t.Logf("%d programs compared: dpor ran %d schedules for %d traces (%d sleep-set blocked)", compared, schedules, traces, blocked)
	}()
	for i := 0; i < n; i++ {
		p := randomProg(r)
		p.goOn = true
		dfs := NewDFS(Options{})
		outs0 := explore(t, p, dfs, 3000)
		if dfs.NewExecution() {
			continue // too many interleavings to compare
		}
		all := classes(outs0)
		d := NewDPOR(Options{})
		outs := exhaust(t, p, d, 1000000)
		got := classes(outs)
		var missing []string
		for k := range all {
			if got[k] == 0 {
				missing = append(missing, k)
			}
		}
		dup := 0
		for _, c := range got {
			dup += c - 1
		}
		compared++
		schedules += len(outs)
		traces += len(all)
		blocked += d.blocked
		if len(missing) > 0 || len(got) != len(all) || dup > d.blocked {
			t.Fatalf("program %d (%s): dfs %d traces; dpor %d schedules, %d traces, %d blocked, missed %d: %v",
				i, describe(p), len(all), len(outs), len(got), d.blocked, len(missing), missing)
		}
	}
}

// describe writes a program's threads, for failure messages.
func describe(p *prog) string {
	var b strings.Builder
	for i, th := range p.threads {
		var names []string
		for _, o := range th {
			names = append(names, o.name)
		}
		fmt.Fprintf(&b, "T%d: %s; ", i, strings.Join(names, " "))
	}
	return b.String()
}

func TestDPORFindsFig1And2Bugs(t *testing.T) {
	// Up to the first bug: reorder(5)'s whole search is 24337 schedules
	// (BenchmarkFirstBug), its bug is at 1825.
	for _, p := range []*prog{fig1(), fig2(), reorder(3), reorder(5)} {
		d := NewDPOR(Options{})
		n, found := 0, false
		for n < 5000 && !found && d.NewExecution() {
			n++
			found = p.run(d, 10000).failed
		}
		if !found {
			t.Errorf("%s: bug not found in %d schedules", describe(p), n)
		}
	}
}

func sortedKeys(m map[string]int) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}

func TestBoundedDPORCoversPB(t *testing.T) {
	// Every trace that has a schedule within the preemption bound (all
	// of which pb runs) is explored by dpor under the same bound.
	r := rand.New(rand.NewSource(2))
	n := 60
	if testing.Short() || raceBuild {
		n = 8
	}
	var runsPB, runsDPOR int
	for i := 0; i < n; i++ {
		p := randomProg(r)
		p.goOn = true
		for b := 0; b <= 2; b++ {
			o := Options{Bound: b}
			if b == 0 {
				o.Bound = -1
			}
			pb := NewPB(o)
			outs := explore(t, p, pb, 20000)
			if pb.NewExecution() {
				continue
			}
			want := classes(outs)
			d := NewDPOR(o)
			got := classes(exhaust(t, p, d, 100000))
			runsPB += len(outs)
			runsDPOR += d.runs
			for k := range want {
				if got[k] == 0 {
					t.Fatalf("program %d (%s), bound %d: pb %d traces, dpor %d; dpor missed %s", i, describe(p), b, len(want), len(got), k)
				}
			}
		}
	}
	t.Logf("pb ran %d schedules, bounded dpor %d", runsPB, runsDPOR)
}

func finals(outs []outcome) map[string]bool {
	m := map[string]bool{}
	for _, o := range outs {
		m[o.final] = true
	}
	return m
}

func TestStatefulDPOR(t *testing.T) {
	// The simulator's signature is its whole state, so matching states
	// loses no outcome; and it never runs more schedules than stateless
	// DPOR.
	check := func(name string, p *prog) (int, int) {
		p.goOn = true
		d := NewDPOR(Options{})
		plain := exhaust(t, p, d, 1000000)
		s := NewDPOR(Options{States: true})
		stateful := exhaust(t, p, s, 1000000)
		want, got := finals(plain), finals(stateful)
		for f := range want {
			if !got[f] {
				t.Fatalf("%s: stateful dpor missed the final state %s (%d schedules, stateless %d)", name, f, len(stateful), len(plain))
			}
		}
		if len(stateful) > len(plain) {
			t.Errorf("%s: stateful dpor ran %d schedules, stateless %d", name, len(stateful), len(plain))
		}
		return len(plain), len(stateful)
	}
	for _, c := range []struct {
		name string
		p    *prog
	}{{"3 writers", writers(3)}, {"writer, 3 readers", readers(3)}, {"indep", indep(3, 3)}, {"fig1", fig1()}, {"fig2", fig2()}, {"reorder3", reorder(3)}, {"lock", lockProg()}} {
		a, b := check(c.name, c.p)
		t.Logf("%s: stateless %d, stateful %d", c.name, a, b)
	}
	// Lock-protected increments: every order of the critical sections
	// is its own trace, but after k of them the state is the same.
	incs := func(n int) *prog {
		p := &prog{nvars: 1}
		var ids []int
		for i := 1; i <= n; i++ {
			ids = append(ids, i)
		}
		p.threads = append(p.threads, []op{create("go", ids...)})
		for i := 1; i <= n; i++ {
			p.threads = append(p.threads, []op{lock("L", 0),
				{name: "inc", acc: []Access{rd(0), wr(0)}, do: func(s *sim, t *thread) { s.vars[0]++ }},
				unlock("U", 0)})
		}
		return p
	}
	for n := 2; n <= 4; n++ {
		a, b := check(fmt.Sprintf("%d increments", n), incs(n))
		t.Logf("%d locked increments: stateless %d, stateful %d", n, a, b)
		if n == 4 && b >= a {
			t.Errorf("state matching saved nothing on %d locked increments: %d schedules", n, b)
		}
	}
	r := rand.New(rand.NewSource(3))
	plainRuns, statefulRuns := 0, 0
	n := 60
	if testing.Short() || raceBuild {
		n = 8
	}
	for i := 0; i < n; i++ {
		a, b := check(fmt.Sprintf("random %d", i), randomProg(r))
		plainRuns += a
		statefulRuns += b
	}
	t.Logf("random programs: stateless %d schedules, stateful %d", plainRuns, statefulRuns)
}

// Seed 002's closed-subset rule on the current sets of a point: a set of
// tried goroutines whose current sets name only goroutines of the set
// completes the point; one naming a goroutine not tried there does not.
func TestClosedSubsetRule(t *testing.T) {
	for _, c := range []struct {
		name   string
		tried  []int // the first is the chosen one
		cur    map[int][]int
		closed bool
	}{
		// The paper's Fig. 3: current[1] = {1,2,3}, current[2] = {2}:
		// {2} is closed.
		{"fig 3", []int{2, 1}, map[int][]int{1: {1, 2, 3}, 2: {2}}, true},
		{"open", []int{1}, map[int][]int{1: {1, 2}}, false},
		{"closed pair", []int{2, 1}, map[int][]int{1: {1, 2}, 2: {2, 1}}, true},
		{"pair open through 3", []int{2, 1}, map[int][]int{1: {1, 2}, 2: {2, 3}}, false},
	} {
		d := NewDPOR(Options{States: true})
		lv := dlevel{Kind: Goroutine, Chosen: c.tried[0]}
		for _, g := range c.tried[1:] {
			lv.Done = append(lv.Done, tried{G: g})
		}
		d.levels = []dlevel{lv}
		d.lst = []lvState{{cur: c.cur}}
		if got := d.closedAt(0); got != c.closed {
			t.Errorf("%s: closedAt = %v, want %v", c.name, got, c.closed)
		}
	}
}
