package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
)

// TestVictimShrinkABBA is the lock-order deadlock: one preemption causes it.
// Extra goroutines and channel traffic give a strategy's schedule many
// irrelevant switches.
func TestVictimShrinkABBA(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var a, b Mutex2
		var wg sync.WaitGroup
		Add(&wg, 4)
		c := Chan(make(chan int, 8))
		for i := 0; i < 2; i++ {
			Go(func() {
				defer Done(&wg)
				for j := 0; j < 3; j++ {
					Send(c, j)
				}
			})
		}
		Go(func() { defer Done(&wg); Lock(&a.mu); Lock(&b.mu); Unlock(&b.mu); Unlock(&a.mu) })
		Go(func() { defer Done(&wg); Lock(&b.mu); Lock(&a.mu); Unlock(&a.mu); Unlock(&b.mu) })
		Wait(&wg)
	})
}

type Mutex2 struct{ mu sync.Mutex }

// TestShrinkABBA: the trace of the deadlock holds a schedule of one
// preemption, says what it was shrunk from, and its steps are causal.
func TestShrinkABBA(t *testing.T) {
	for _, strat := range []string{"random", "pct"} {
		evs := victim(t, "TestVictimShrinkABBA", wire.Config{Strategy: strat, Seed: 5, Schedules: 2000, MinimizeNS: 5e9})
		b := wantBug(t, evs, kindDeadlock)
		tr, err := replay.Read(b.Trace)
		if err != nil {
			t.Fatal(err)
		}
		m := tr.Minimized
		if m == nil || m.To.Preemptions != 1 || b.Size == nil || *b.Size != (wire.Size(m.To)) {
			t.Fatalf("%s: minimized %+v, event size %+v", strat, m, b.Size)
		}
		if !strings.Contains(b.Report, "schedule: "+m.To.String()) || !b.Replayed {
			t.Errorf("%s: the report does not give the schedule's size, or the trace does not replay:\n%s", strat, b.Report)
		}
		if m.From != m.To && !strings.Contains(b.Report, "(shrunk from "+m.From.String()) {
			t.Errorf("%s: the report does not say what it shrank from:\n%s", strat, b.Report)
		}
		for _, err := range replay.CheckSteps(tr) {
			t.Errorf("%s: %v", strat, err)
		}
		// The shrunk trace replays to the same deadlock.
		r := wantBug(t, victim(t, "TestVictimShrinkABBA", wire.Config{Mode: "replay", Trace: b.Trace}), kindDeadlock)
		if !r.Replayed || !strings.Contains(r.Report, "interleaving:") {
			t.Errorf("%s: replay: replayed %v, report:\n%s", strat, r.Replayed, r.Report)
		}
	}
}

// TestVictimFailureOutput fails through t.Errorf on some schedules.
func TestVictimFailureOutput(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		n := 0
		var mu sync.Mutex
		var wg sync.WaitGroup
		Add(&wg, 2)
		for i := 0; i < 2; i++ {
			Go(func() {
				defer Done(&wg)
				Lock(&mu)
				v := n
				Unlock(&mu)
				Lock(&mu)
				n = v + 1
				Unlock(&mu)
			})
		}
		Wait(&wg)
		T(t).Log("n is", n)
		if n != 2 {
			T(t).Errorf("lost an update: n = %d", n)
		}
	})
}

// TestFailureReportCarriesTheOutput: without -v, the report of a failed
// check says what the check said, with its place.
func TestFailureReportCarriesTheOutput(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimFailureOutput", wire.Config{Strategy: "random", Seed: 1, Schedules: 500}), kindFailure)
	if !strings.Contains(b.Message, "steps_test.go:") || !strings.Contains(b.Message, "lost an update: n = 1") {
		t.Errorf("message %q", b.Message)
	}
	if !strings.Contains(b.Report, "n is 1") || !strings.HasPrefix(b.Key, kindFailure+":steps_test.go:") {
		t.Errorf("key %q, report:\n%s", b.Key, b.Report)
	}
}
