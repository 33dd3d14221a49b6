package strategies

import (
	"reflect"
	"testing"
)

// The Clock choice (strategy.go): second in Maple's order, not a goroutine
// for yields, a thread of its own for pct.

func TestMapleOrderClock(t *testing.T) {
	for _, tc := range []struct {
		p    Point
		want []int
	}{
		// Current runs: current, clock, then round robin.
		{Point{Kind: Goroutine, Choices: []int{0, 1, Clock}, Current: 0}, []int{0, 2, 1}},
		{Point{Kind: Goroutine, Choices: []int{0, 1, 2, Clock}, Current: 1}, []int{1, 3, 2, 0}},
		// Current blocked: the round-robin choice, clock, the others.
		{Point{Kind: Goroutine, Choices: []int{1, 2, Clock}, Current: 0}, []int{0, 2, 1}},
		// Alone with the clock.
		{Point{Kind: Goroutine, Choices: []int{3, Clock}, Current: 3}, []int{0, 1}},
		// A yield with only the clock beside: not forced to switch.
		{Point{Kind: Goroutine, Choices: []int{0, Clock}, Current: 0, Yield: true}, []int{0, 1}},
		// A yield with another goroutine: current left out, clock second.
		{Point{Kind: Goroutine, Choices: []int{0, 1, Clock}, Current: 0, Yield: true}, []int{1, 2}},
		// The watchdog's decisions: no current goroutine.
		{Point{Kind: Goroutine, Choices: []int{0, Clock}, Current: -1}, []int{0, 1}},
	} {
		if got := mapleOrder(&tc.p, nil); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: order %v, want %v", tc.p, got, tc.want)
		}
	}
}

func TestCurrentRunsClock(t *testing.T) {
	if !currentRuns(&Point{Kind: Goroutine, Choices: []int{0, Clock}, Current: 0, Yield: true}) {
		t.Error("a yielding goroutine alone with the clock: switching to the clock is a preemption")
	}
	if currentRuns(&Point{Kind: Goroutine, Choices: []int{1, Clock}, Current: 0}) {
		t.Error("current blocked: not a preemption")
	}
}

// A search offered the clock at every point explores it: dfs tries both
// children, db tries the clock at bound 1, pb at bound 1 when the current
// goroutine runs.
func TestSearchExploresClock(t *testing.T) {
	for _, name := range []string{"dfs", "pb", "db"} {
		s, err := New(name, Options{Bound: 1})
		if err != nil {
			t.Fatal(err)
		}
		fired := map[int]bool{}
		for s.NewExecution() {
			at := -1
			for i := 0; i < 3; i++ {
				p := &Point{Kind: Goroutine, Choices: []int{0, Clock}, Current: 0}
				if p.Choices[s.Next(p)] == Clock && at < 0 {
					at = i
				}
			}
			fired[at] = true
		}
		for _, at := range []int{-1, 0, 1, 2} {
			if !fired[at] {
				t.Errorf("%s: never fired the clock first at point %d (%v)", name, at, fired)
			}
		}
	}
}

// pct gives the clock a priority: over executions it fires early and it
// does not.
func TestPCTClockPriority(t *testing.T) {
	s := NewPCT(Options{Seed: 1, Depth: 1})
	chosen, skipped := 0, 0
	for i := 0; i < 200; i++ {
		s.NewExecution()
		p := &Point{Kind: Goroutine, Choices: []int{0, 1, Clock}, Current: 0}
		if p.Choices[s.Next(p)] == Clock {
			chosen++
		} else {
			skipped++
		}
	}
	if chosen == 0 || skipped == 0 {
		t.Errorf("clock chosen %d times, skipped %d: want both", chosen, skipped)
	}
}

// timeout is spinstop's shape (testprogs/gobugs/spinstop): thread 1 works,
// then reports; thread 0 starts it and waits for the report or its
// timeout, whichever comes first, and fails if the timeout came first.
// The timer fires only when a strategy chooses the clock before the
// report: when nothing else can run, the report can.
func timeout() *prog {
	const rep, to, work = 0, 1, 2
	return &prog{nvars: 3, threads: [][]op{
		{create("go", 1), {name: "select",
			guard: func(s *sim, t *thread) bool { return s.vars[rep] == 1 || s.vars[to] == 1 },
			do: func(s *sim, t *thread) {
				if s.vars[rep] == 0 {
					s.fail = "gave up before the report"
				}
			}, acc: []Access{rd(rep), rd(to)}}},
		{set("work", work, 1), set("report", rep, 1)},
	}, clock: []op{set("timer", to, 1)}}
}

// dpor fires a timer early where a race asks for it: on timeout, whose bug
// needs the timer to fire before the report, it runs one schedule per
// trace (the clock's firing being a step of a goroutine of its own,
// dependent with every step) and proves the search complete.
func TestDPORClock(t *testing.T) {
	p := timeout()
	p.goOn = true
	all := classes(exhaust(t, p, NewDFS(Options{}), 100000))
	// The firing is global (but commutes with create, whose event is
	// empty), so a trace is where it falls among work, report and
	// select: before work or between work and report (then select may
	// run before or after report: 2 traces each), between report and
	// select, or never (the program ends first): 6 traces.
	const want = 6
	if len(all) != want {
		t.Fatalf("DFS found %d traces, want %d: %v", len(all), want, sortedKeys(all))
	}
	for _, o := range []Options{{}, {States: true}} {
		d := NewDPOR(o)
		outs := exhaust(t, p, d, 1000)
		got := classes(outs)
		if len(outs) != want || len(got) != want {
			t.Errorf("dpor %+v: %d schedules, %d traces (%d blocked), want %d", o, len(outs), len(got), d.blocked, want)
		}
		for k := range all {
			if got[k] == 0 {
				t.Errorf("dpor %+v missed the trace %s", o, k)
			}
		}
		if firstBug(outs) == 0 {
			t.Errorf("dpor %+v: the timeout never fired before the report", o)
		}
		if !d.Proved() && !o.States { // a match leaves a search unproved
			t.Errorf("dpor %+v: not proved: %s", o, d.Status())
		}
	}
	// Bounded: firing the timer while thread 0 could go on is a
	// preemption; at bound 1 the bug is in reach.
	d := NewDPOR(Options{Bound: 1})
	if firstBug(exhaust(t, p, d, 1000)) == 0 {
		t.Errorf("dpor bound 1: bug not found: %s", d.Status())
	}
}
