package strategies

import (
	"strings"
	"testing"
)

// exploreBound runs an iterative bounded search up to bound and returns the
// outcomes of its executions.
func exploreBound(t *testing.T, p *prog, s *Bounded, limit int) []outcome {
	t.Helper()
	var all []outcome
	for len(all) < limit && s.NewExecution() {
		all = append(all, p.run(s, 10000))
	}
	return all
}

func TestBoundedFig1Counts(t *testing.T) {
	// SCTBench Example 2: with bound 1, PB gives 11 terminal schedules and
	// DB 4 (bound 0 and 1 together).
	for _, c := range []struct {
		name string
		s    *Bounded
		want int
	}{{"pb", NewPB(Options{Bound: 1}), 11}, {"db", NewDB(Options{Bound: 1}), 4}} {
		all := exploreBound(t, fig1(), c.s, 1000)
		// No schedule is run twice, not even those of bound 0 at bound 1.
		if len(all) != c.want || len(distinct(all)) != c.want {
			t.Errorf("%s: %d executions (%d distinct), want %d: %v", c.name, len(all), len(distinct(all)), c.want, distinct(all))
		}
		if !c.s.Exhausted() || c.s.Bound() != 1 {
			t.Errorf("%s: exhausted=%v bound=%d", c.name, c.s.Exhausted(), c.s.Bound())
		}
		if firstBug(all) == 0 {
			t.Errorf("%s: bug of Fig. 1 not found at bound 1", c.name)
		}
		if !strings.Contains(c.s.Status(), "exhausted") {
			t.Errorf("%s: status %q", c.name, c.s.Status())
		}
	}
}

func TestBoundedCountsExactly(t *testing.T) {
	// Check each schedule's cost against the definitions, computed
	// independently from the schedule, and that pass c runs new schedules
	// of cost exactly c only.
	for _, name := range []string{"pb", "db"} {
		for bound := 1; bound <= 3; bound++ {
			var s *Bounded
			if name == "pb" {
				s = NewPB(Options{Bound: bound})
			} else {
				s = NewDB(Options{Bound: bound})
			}
			rec := &recorder{s: s}
			p := fig2()
			seen := map[string]bool{}
			for s.NewExecution() {
				passBound := s.Bound()
				rec.reset()
				o := p.run(rec, 1000)
				c := rec.preemptions
				if name == "db" {
					c = rec.delays
				}
				if c > bound {
					t.Fatalf("%s bound %d: schedule %s costs %d", name, bound, o.schedule, c)
				}
				if c != passBound {
					t.Fatalf("%s: new schedule %s in pass %d costs %d", name, o.schedule, passBound, c)
				}
				if seen[o.schedule] {
					t.Fatalf("%s: schedule %s explored twice", name, o.schedule)
				}
				seen[o.schedule] = true
			}
		}
	}
}

// recorder computes the preemption and delay counts of the schedule a
// strategy takes, from the definitions (SCTBench paper, Thomson, Donaldson
// and Betts, ACM TOPC 2016, §2.3 and §2.4).
type recorder struct {
	s                   Strategy
	n                   int
	preemptions, delays int
}

func (r *recorder) reset()             { r.n, r.preemptions, r.delays = 0, 0, 0 }
func (r *recorder) NewExecution() bool { return r.s.NewExecution() }
func (r *recorder) Next(p *Point) int {
	i := r.s.Next(p)
	if p.Kind != Goroutine {
		return i
	}
	for _, c := range p.Choices {
		if c+1 > r.n {
			r.n = c + 1
		}
	}
	if p.Current+1 > r.n {
		r.n = p.Current + 1
	}
	t := p.Choices[i]
	last := p.Current
	enabled := func(x int) bool { return p.Index(x) >= 0 && !(p.Yield && x == last) }
	if t != last && enabled(last) {
		r.preemptions++
	}
	dist := (t - last + r.n) % r.n
	for x := 0; x < dist; x++ {
		if enabled((last + x) % r.n) {
			r.delays++
		}
	}
	return i
}

func TestFig2NeedsTwoDelaysOnePreemption(t *testing.T) {
	for _, c := range []struct {
		s     *Bounded
		found bool
	}{
		{NewPB(Options{Bound: 1}), true},
		{NewDB(Options{Bound: 1}), false},
		{NewDB(Options{Bound: 2}), true},
	} {
		all := exploreBound(t, fig2(), c.s, 100000)
		if got := firstBug(all) > 0; got != c.found {
			t.Errorf("%s bound %d: found=%v, want %v", c.s.name, c.s.maxBound, got, c.found)
		}
	}
}

func TestReorderNeedsXMinus1Delays(t *testing.T) {
	for x := 3; x <= 5; x++ {
		all := exploreBound(t, reorder(x), NewDB(Options{Bound: x - 2}), 1000000)
		if firstBug(all) > 0 {
			t.Errorf("reorder_%d found with %d delays", x, x-2)
		}
		d := NewDB(Options{Bound: x - 1})
		all = exploreBound(t, reorder(x), d, 1000000)
		if firstBug(all) == 0 {
			t.Errorf("reorder_%d not found with %d delays", x, x-1)
		}
		all = exploreBound(t, reorder(x), NewPB(Options{Bound: 1}), 1000000)
		if firstBug(all) == 0 {
			t.Errorf("reorder_%d not found with 1 preemption", x)
		}
	}
}

func TestBoundedStopsWhenTreeExplored(t *testing.T) {
	// Two threads of two steps have at most 3 preemptions; with bound 10
	// the search must stop once a pass leaves nothing out.
	s := NewPB(Options{Bound: 10})
	all := exploreBound(t, indep(2, 2), s, 1000)
	if len(distinct(all)) != 6 || len(all) != 6 {
		t.Fatalf("%d distinct, %d executions, want 6", len(distinct(all)), len(all))
	}
	if !s.Exhausted() || s.Bound() >= 10 {
		t.Fatalf("exhausted=%v bound=%d", s.Exhausted(), s.Bound())
	}
	if !strings.Contains(s.Status(), "exhausted") {
		t.Fatalf("status %q", s.Status())
	}
}

func TestBoundedFirstScheduleIsRoundRobin(t *testing.T) {
	for _, s := range []*Bounded{NewPB(Options{}), NewDB(Options{})} {
		all := exploreBound(t, fig1(), s, 1)
		if want := "T0:a T1:b T1:c T2:d T3:e"; all[0].schedule != want {
			t.Errorf("%s: first %q want %q", s.name, all[0].schedule, want)
		}
	}
}

var _ Saver = (*DFS)(nil)
var _ Status = (*DFSRB)(nil)
var _ Status = (*PCT)(nil)

// lockProg: two threads increment a counter under a lock, a third selects
// between two ready cases, then yields once.
func lockProg() *prog {
	inc := []op{lock("lock", 0), {name: "inc", do: func(s *sim, t *thread) { s.vars[0]++ }}, unlock("unlock", 0)}
	return &prog{nvars: 1, threads: [][]op{
		{create("go", 1, 2, 3), join("join", 1, 2, 3)},
		inc, inc,
		{{name: "select", cases: 2}, {name: "yield", yield: true}, nop("after")},
	}}
}

func TestBoundedMatchesBruteForce(t *testing.T) {
	// The new schedules of pb and db up to bound B are exactly the
	// schedules of cost <= B among all those dfs enumerates.
	progs := map[string]func() *prog{
		"fig1": fig1, "fig2": fig2, "reorder3": func() *prog { return reorder(3) },
		"lock": lockProg, "indep": func() *prog { return indep(3, 2) },
	}
	for pname, mk := range progs {
		rec := &recorder{s: NewDFS(Options{})}
		type costs struct{ p, d int }
		all := map[string]costs{}
		for rec.NewExecution() {
			rec.reset()
			o := mk().run(rec, 1000)
			all[o.schedule] = costs{rec.preemptions, rec.delays}
		}
		for _, name := range []string{"pb", "db"} {
			for b := 1; b <= 3; b++ {
				s := NewPB(Options{Bound: b})
				if name == "db" {
					s = NewDB(Options{Bound: b})
				}
				fresh := exploreBound(t, mk(), s, 100000)
				got := distinct(fresh)
				if len(got) != len(fresh) {
					t.Errorf("%s %s bound %d: a new schedule ran twice", pname, name, b)
				}
				want := 0
				for sched, c := range all {
					cost := c.p
					if name == "db" {
						cost = c.d
					}
					if cost <= b {
						want++
						if !got[sched] {
							t.Errorf("%s %s bound %d: missed %s (cost %d)", pname, name, b, sched, cost)
						}
					}
				}
				if len(got) != want {
					t.Errorf("%s %s bound %d: %d schedules, want %d", pname, name, b, len(got), want)
				}
			}
		}
	}
}

func TestBoundZero(t *testing.T) {
	// Options.Bound = 0 means the default; a negative bound asks for 0.
	db := NewDB(Options{Bound: -1})
	all := exploreBound(t, fig1(), db, 100)
	if len(all) != 1 || !db.Exhausted() {
		t.Fatalf("db bound 0: %d schedules (exhausted %v), want the round robin only", len(all), db.Exhausted())
	}
	pb := NewPB(Options{Bound: -1})
	all = exploreBound(t, reorder(3), pb, 1000)
	if firstBug(all) > 0 {
		t.Fatal("reorder_3 found without preemption")
	}
	if len(all) < 2 {
		t.Fatalf("pb bound 0 explored %d schedules; the non-preemptive choices branch", len(all))
	}
}
