package runtime

import (
	"sync"
	"testing"
	"time"
)

// Every operation has its charge in the table: a new operation must say
// what it costs (0 is a choice, written down).
func TestEveryOpHasACost(t *testing.T) {
	if len(opCost) <= int(opRun) {
		t.Fatalf("opCost has %d entries; the last operation, %v, is %d", len(opCost), opRun, opRun)
	}
	for k := opNone; k <= opRun; k++ {
		if opCost[k] < 0 {
			t.Errorf("%v costs %d ps", k, opCost[k])
		}
	}
}

// A sleep ends no earlier than Go's fastest wake-up after its deadline,
// and a read of the clock costs what time.Now does: reads a sleep apart
// are farther apart than the sleep, by at least what Go takes.
func TestSleepWakesLate(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		a := Now()
		Sleep(10 * time.Millisecond)
		b := Now()
		if d := b.Sub(a); d < 10*time.Millisecond+wakeSleep+costNow/1000 {
			t.Errorf("a 10ms sleep between two reads of the clock took %v", d)
		}
	})
}

// Timers armed one after the other fall due one after the other, as in
// Go, where arming one takes time: testify's Eventually arms its
// timeout, then its ticker, and on an idle machine the timeout fires
// before the tick due at the same multiple of the tick, never after.
func TestTimersArmedInTurnFallDueInTurn(t *testing.T) {
	for _, s := range []string{"dfs", "random"} {
		t.Run(s, func(t *testing.T) {
			check(t, s, 200, func(t *testing.T) {
				tm := NewTimer(200 * time.Millisecond)
				tk := NewTicker(100 * time.Millisecond)
				defer TickerStop(tk)
				ticks := 0
				for {
					if Select(false, OnRecv(tm.C), OnRecv(tk.C)) == 0 {
						break
					}
					ticks++
				}
				if ticks != 1 {
					t.Errorf("%d ticks before the timer due at the second tick", ticks)
				}
			})
		})
	}
}

// recent counts the errors of the last window, forgetting them once a
// window has passed without one (issue 30's example).
type recent struct {
	mu     sync.Mutex
	n      int
	last   time.Time
	window time.Duration
}

func (r *recent) record() {
	Lock(&r.mu)
	defer Unlock(&r.mu)
	if Load(&r.n) > 0 && Now().After(Load(&r.last).Add(r.window)) {
		Store(&r.n, 0)
	}
	Store(&r.n, Load(&r.n)+1)
	Store(&r.last, Now())
}

// Goroutines started a sleep of the window apart: each finds the last
// error a window old, as in Go, where the sleep wakes later than its
// deadline and a goroutine's start takes time, whatever the schedule and
// whether timers fire early or not (with each step costing 10 ns and
// sleeps waking at their deadline, the comparison went either way).
func TestErrorsExpireEveryWindow(t *testing.T) {
	for _, early := range []time.Duration{DefaultTimerEarly, 0} {
		for _, s := range allStrategies {
			t.Run(s+"/early="+early.String(), func(t *testing.T) {
				set := func(s *settings) { s.timerEarly, s.noStallCharge = early, true }
				checkWith(t, s, lighter(300), set, func(t *testing.T) {
					r := &recent{window: 10 * time.Millisecond}
					var wg sync.WaitGroup
					for i := 0; i < 3; i++ {
						Add(&wg, 1)
						Go(func() { defer Done(&wg); r.record() })
						Sleep(10 * time.Millisecond)
					}
					Wait(&wg)
					Lock(&r.mu)
					defer Unlock(&r.mu)
					if n := Load(&r.n); n != 1 {
						t.Errorf("%d recent errors, want 1", n)
					}
				})
			})
		}
	}
}

// A trace records the cost model it was written under: "calibrated" for
// the table, a duration for the uniform cost per step that came before
// it (and gosct-bench --step-cost), which its replay keeps.
func TestStepCostParsed(t *testing.T) {
	s := defaultSettings
	if s.uniformCost {
		t.Fatal("the default is the uniform cost")
	}
	if err := s.parseTime("", "", "10ns"); err != nil || !s.uniformCost || s.stepCost != 10*time.Nanosecond {
		t.Errorf("step_cost 10ns: uniform %v, %v, %v", s.uniformCost, s.stepCost, err)
	}
	if err := s.parseTime("", "", calibratedCost); err != nil || s.uniformCost {
		t.Errorf("step_cost %s: uniform %v, %v", calibratedCost, s.uniformCost, err)
	}
	if err := s.parseTime("", "", "fast"); err == nil {
		t.Error("step_cost fast: no error")
	}
}
