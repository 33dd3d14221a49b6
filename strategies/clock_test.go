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
