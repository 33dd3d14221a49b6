package strategies

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestPortfolioRotates(t *testing.T) {
	p := NewPortfolio(Options{Seed: 9})
	var order []string
	for i := 0; i < 10; i++ {
		if !p.NewExecution() {
			t.Fatal("portfolio ended")
		}
		order = append(order, p.Member())
		fig1().run(p, 1000)
	}
	want := "random,db,pct d=3,dpor,random,pct d=2,random,pct d=3,pct d=1,dpor"
	if got := strings.Join(order, ","); got != want {
		t.Fatalf("rotation %s, want %s", got, want)
	}
	st := p.Status()
	for _, m := range []string{"random: 3", "db: 1 (bound 0", "pct d=3: 2 (d=3", "pct d=2: 1", "pct d=1: 1", "dpor: 2 (2 schedules"} {
		if !strings.Contains(st, m) {
			t.Errorf("status %q lacks %q", st, m)
		}
	}
}

func TestPortfolioDropsExhaustedMember(t *testing.T) {
	// writers(5): db exhausts after its executions (the same number as
	// alone) and the rotation goes on without it; dpor, with 120 traces
	// to explore, is still at it.
	alone := len(explore(t, writers(5), NewDB(Options{}), 1000))
	p := NewPortfolio(Options{Seed: 1})
	dbRuns := 0
	for i := 0; i < 400; i++ {
		if !p.NewExecution() {
			t.Fatal("portfolio ended")
		}
		if p.Member() == "db" {
			dbRuns++
		}
		writers(5).run(p, 1000)
	}
	if dbRuns != alone || alone >= 40 {
		t.Fatalf("db ran %d times in the portfolio, %d alone", dbRuns, alone)
	}
	if p.Exhausted() {
		t.Fatal("portfolio with random members exhausted")
	}
}

func TestPortfolioDeterministicAndSeeded(t *testing.T) {
	run := func(seed int64) string {
		var s []string
		for _, o := range explore(t, fig2(), NewPortfolio(Options{Seed: seed}), 40) {
			s = append(s, o.schedule)
		}
		return strings.Join(s, "|")
	}
	if run(1) != run(1) {
		t.Fatal("same seed, different schedules")
	}
	if run(1) == run(2) {
		t.Fatal("different seeds, same schedules")
	}
	if deriveSeed(1, 0) == deriveSeed(1, 1) || deriveSeed(1, 0) == deriveSeed(2, 0) {
		t.Fatal("derived seeds collide")
	}
}

func TestPortfolioFindsFig2(t *testing.T) {
	if firstBug(explore(t, fig2(), NewPortfolio(Options{Seed: 1}), 200)) == 0 {
		t.Fatal("portfolio missed Fig. 2 in 200 executions")
	}
}

func TestNewKnowsAll(t *testing.T) {
	for _, n := range []string{"random", "pct", "dfs", "pb", "db", "dfsrb", "dpor", "portfolio"} {
		s, err := New(n, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if firstBug(explore(t, fig1(), s, 5000)) == 0 {
			t.Errorf("%s missed the Fig. 1 bug in 5000 executions", n)
		}
	}
	if _, err := New("nope", Options{}); err == nil {
		t.Fatal("unknown strategy accepted")
	}
}

func TestPortfolioNamesItsProver(t *testing.T) {
	// dpor replaced by a member that never ends (as when its search is
	// no proof): db, on its second turn, has explored the one schedule
	// of one goroutine. The status must say who proved the test, not
	// credit dpor with it.
	one := &prog{nvars: 1, threads: [][]op{{set("x=1", 0, 1), set("x=2", 0, 2)}}}
	p := NewPortfolio(Options{Seed: 1})
	p.members[5].s = NewRandom(Options{Seed: 1})
	outs := explore(t, one, p, 100)
	if len(outs) == 100 || !p.Proved() {
		t.Fatalf("%d executions, proved %v; want db to prove the test: %s", len(outs), p.Proved(), p.Status())
	}
	st := p.Status()
	if !strings.HasPrefix(st, fmt.Sprintf("exhausted: %d schedules, db explored every schedule; ", len(outs))) || strings.Contains(st, "dpor explored") {
		t.Errorf("status %q", st)
	}
}

func TestPortfolioDBProvesNothingBesideUncontrolledCode(t *testing.T) {
	// db does not read how executions ended: its search of a program
	// with a step in uncontrolled code ends, and is no proof. The
	// portfolio must not stop on it (nor dpor's, which counts the gap).
	p := NewPortfolio(Options{Seed: 1})
	n := 0
	for ; n < 100 && p.NewExecution(); n++ {
		q := &prog{nvars: 1, threads: [][]op{{set("x=1", 0, 1), set("x=2", 0, 2)}}}
		q.uncontrolled = true
		q.run(p, 1000)
	}
	if n != 100 || p.Proved() || p.Exhausted() {
		t.Fatalf("portfolio stopped after %d executions, proved %v: %s", n, p.Proved(), p.Status())
	}
}

func TestPortfolioStopsWhenProved(t *testing.T) {
	// indep(2,2) is one trace: dpor explores it on its first turn (the
	// fourth execution), and then no schedule can show anything new.
	p := NewPortfolio(Options{Seed: 1})
	outs := explore(t, indep(2, 2), p, 1000)
	if len(outs) != 4 || !p.Exhausted() || p.NewExecution() {
		t.Fatalf("%d executions, exhausted %v; want the portfolio to stop after dpor's first", len(outs), p.Exhausted())
	}
	if st := p.Status(); !strings.Contains(st, "dpor: 1 (exhausted: 1 schedules)") || !strings.HasPrefix(st, "exhausted: 4 schedules, dpor explored every trace; ") {
		t.Errorf("status %q", st)
	}
	// Not when dpor could not see everything: a step without an event
	// (uncontrolled code) keeps it from proving anything.
	p = NewPortfolio(Options{Seed: 1})
	n := 0
	for ; n < 40 && p.NewExecution(); n++ {
		q := indep(2, 2)
		q.uncontrolled = true
		q.run(p, 1000)
	}
	if n != 40 || p.Exhausted() {
		t.Fatalf("portfolio stopped after %d executions though dpor's were not all under control", n)
	}
	// Nor when the program read a value no decision chose: every dpor
	// execution drew it, another draw may show another outcome.
	p = NewPortfolio(Options{Seed: 1})
	n = 0
	for ; n < 40 && p.NewExecution(); n++ {
		q := indep(2, 2)
		q.values = true
		q.run(p, 1000)
	}
	if n != 40 || p.Exhausted() || p.Proved() {
		t.Fatalf("portfolio stopped after %d executions though dpor's read values no decision chose", n)
	}
}

func TestPortfolioResume(t *testing.T) {
	// writers(5): db is exhausted (out of the rotation) within the run,
	// so "out" and the rotation must survive the save.
	mk := func() Strategy { return NewPortfolio(Options{Seed: 5}) }
	checkResume(t, mk, func() *prog { return writers(5) }, 300, 0, 1, 3, 8, 9, 33, 150, 299, 300)
	if p := mk().(*Portfolio); len(explore(t, writers(5), p, 300)) != 300 || !p.members[1].out {
		t.Fatal("db is not out of the rotation after 300 executions: the test does not cover it")
	}
	checkResume(t, mk, fig2, 100, 13, 50)
	var buf bytes.Buffer
	p := NewPortfolio(Options{Seed: 5})
	explore(t, fig2(), p, 4)
	if err := p.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := NewPortfolio(Options{Seed: 6}).Load(bytes.NewReader(buf.Bytes())); err == nil {
		t.Fatal("a portfolio of seed 6 loaded the state of seed 5")
	}
}

// With a guide, guided search is a member: the third of every eleven
// executions, the only ones that ask for positions; it finds reorder's
// bug at its first turn; the portfolio saves and loads it.
func TestPortfolioWithGuide(t *testing.T) {
	p, path := reorderGuide(t, 20)
	pf := NewPortfolio(Options{Seed: 2, Guide: path})
	var order []string
	first := 0
	for i := 1; i <= 12; i++ {
		pf.NewExecution()
		order = append(order, pf.Member())
		if pf.Locates() != (pf.Member() == "guided") {
			t.Errorf("execution %d (%s): Locates %v", i, pf.Member(), pf.Locates())
		}
		if p.run(pf, 10000).failed && first == 0 {
			first = i
		}
	}
	want := "random,db,guided,pct d=3,dpor,random,pct d=2,random,pct d=3,pct d=1,dpor,random"
	if got := strings.Join(order, ","); got != want {
		t.Fatalf("rotation %s, want %s", got, want)
	}
	if first == 0 || first > 3 {
		t.Errorf("first bug at execution %d, want by the guided member's first turn (3)", first)
	}
	var buf bytes.Buffer
	if err := pf.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := NewPortfolio(Options{Seed: 2, Guide: path}).Load(&buf); err != nil {
		t.Fatal(err)
	}
	if NewPortfolio(Options{Seed: 2}).Locates() {
		t.Errorf("a portfolio without a guide asks for positions")
	}
}
