package runtime

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// The fair scheduler (sched.go) takes over from the strategy only when a
// schedule starves a goroutine or stops changing shared state; these tests
// run single executions with small windows so that they stay fast.

// smallWindows are settings whose fairness and livelock windows a test
// crosses in a few hundred steps.
func smallWindows() settings {
	set := defaultSettings
	set.fairAfter, set.livelockWindow, set.maxSteps = 200, 500, 100_000
	return set
}

// runWith runs body as one execution under s with set.
func runWith(s strategies.Strategy, set settings, body func()) *execution {
	s.NewExecution()
	e := newExecution(s, set, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.runTest(nil, func(*testing.T) { body() })
	}()
	<-done
	return e
}

// counting counts the decisions its strategy was asked for.
type counting struct {
	strategies.Strategy
	calls int
}

func (c *counting) Next(p *strategies.Point) int { c.calls++; return c.Strategy.Next(p) }

// goroutineDecisions counts the goroutine choices in e's trail.
func goroutineDecisions(e *execution) int {
	n := 0
	for _, d := range e.trail {
		if d.kind == strategies.Goroutine {
			n++
		}
	}
	return n
}

// A long execution in which every goroutine keeps running and changing
// state is the strategy's to decide to the end: taking it away after a
// fixed number of steps hid bugs late in long tests (the second local
// search of parsec.streamcluster3 starts after about 45,000 steps).
func TestStrategyDecidesLongFairExecution(t *testing.T) {
	set := smallWindows()
	s := &counting{Strategy: otherFirst{}}
	e := runWith(s, set, func() {
		ping, pong := Chan(make(chan int)), Chan(make(chan int))
		Go(func() {
			for v := 0; v < 300; v++ {
				Send(ping, v)
				Recv(pong)
			}
		})
		for i := 0; i < 300; i++ {
			Send(pong, Recv(ping))
		}
	})
	if e.bug != nil {
		t.Fatalf("bug: %s", e.bug.message)
	}
	n := goroutineDecisions(e)
	if n <= 2*set.fairAfter {
		t.Fatalf("only %d decisions: the test does not cross the window", n)
	}
	if s.calls != n {
		t.Errorf("the strategy took %d of %d decisions; want all", s.calls, n)
	}
}

// A goroutine that spins reading a flag, under a strategy that always
// continues the current goroutine, starves the goroutine that would set it:
// the fair scheduler must end the starvation, and it is no bug.
func TestFairnessEndsReadingSpin(t *testing.T) {
	e := runWith(sameFirst{}, smallWindows(), func() {
		var flag atomic.Bool // atomic: the test must stay race-free under -race
		Go(func() { Then(Atomic(&flag), 0); flag.Store(true) })
		for !Then(AtomicLoad(&flag), flag.Load()) {
		}
	})
	if e.bug != nil {
		t.Fatalf("bug: %s", e.bug.message)
	}
	if e.tooLong {
		t.Fatal("the spin was never resolved")
	}
}

// The same with a spin that changes state at every turn (it locks and
// unlocks a mutex): only the starvation of the other goroutine shows that
// the strategy must give way.
func TestFairnessEndsLockingSpin(t *testing.T) {
	e := runWith(sameFirst{}, smallWindows(), func() {
		var mu sync.Mutex
		flag := false
		Go(func() { Lock(&mu); flag = true; Unlock(&mu) })
		for {
			Lock(&mu)
			f := flag
			Unlock(&mu)
			if f {
				break
			}
		}
	})
	if e.bug != nil {
		t.Fatalf("bug: %s", e.bug.message)
	}
	if e.tooLong {
		t.Fatal("the spin was never resolved")
	}
}

// A goroutine that only reads, but reads new locations all along (lookups
// of many keys in a table built before), is a long computation, not a
// livelock: nobody else could change what it reads, yet it ends.
func TestLongReadOnlyIsNotLivelock(t *testing.T) {
	table := make([]int, 5000)
	e := runWith(sameFirst{}, smallWindows(), func() {
		blocked := Chan(make(chan int))
		Go(func() { Recv(blocked) })
		sum := 0
		for i := range table {
			sum += Load(&table[i])
		}
		Send(blocked, sum)
	})
	if e.bug != nil {
		t.Fatalf("bug: %s", e.bug.message)
	}
	if e.tooLong {
		t.Fatal("too long")
	}
}

// A goroutine that reads the same few locations for a long time but
// draws a random number in every iteration (a test of jitter over 100,000
// draws) changes the random source: not a livelock.
func TestRandomDrawsAreNotLivelock(t *testing.T) {
	var bound int = 1 << 40
	e := runWith(sameFirst{}, smallWindows(), func() {
		blocked := Chan(make(chan int))
		Go(func() { Recv(blocked) })
		n := 0
		for i := 0; i < 5000; i++ {
			if Rand2IntN(Load(&bound)) < 0 {
				n++
			}
		}
		Send(blocked, n)
	})
	if e.bug != nil {
		t.Fatalf("bug: %s", e.bug.message)
	}
	if e.tooLong {
		t.Fatal("too long")
	}
}

// Two goroutines that both keep running without changing anything are a
// livelock, whether the strategy starves one of them (pct) or neither
// (random).
func TestLivelockBothSpinning(t *testing.T) {
	if testing.Short() {
		t.Skip("spins two goroutines to the livelock bound under two strategies (TestReplayLivelock finds the same livelock under -short) (the whole suite runs it)")
	}
	for _, strategy := range []string{"random", "pct"} {
		evs := victim(t, "TestVictimLivelockBothSpinning", wire.Config{Strategy: strategy, Schedules: 1, Seed: 1})
		wantBug(t, evs, kindLivelock)
	}
}

// The trace of a livelock, whose end the fair choice decided, replays:
// the replay takes the recorded fair decisions as well.
func TestReplayLivelock(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimLivelockBothSpinning", wire.Config{Strategy: "pct", Schedules: 1, Seed: 1}), kindLivelock)
	if !b.Replayed {
		t.Errorf("the detailed re-run did not reproduce the livelock")
	}
	evs := victim(t, "TestVictimLivelockBothSpinning", wire.Config{Mode: "replay", Trace: b.Trace, Schedules: 1})
	for _, e := range evs {
		if e.Event == "diverged" {
			t.Errorf("the replay diverged: %s", e.Message)
		}
	}
	if r := wantBug(t, evs, kindLivelock); !r.Replayed {
		t.Errorf("the replay did not reproduce the livelock")
	}
}

func TestVictimLivelockBothSpinning(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		stop := false
		Go(func() {
			for !Load(&stop) {
			}
		})
		for !Load(&stop) {
		}
	})
}
