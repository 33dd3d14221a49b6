package runtime

import (
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
)

// A test that sleeps to let a goroutine run fails only where the sleep
// ends before the goroutine took its step: a stalled goroutine, which Go
// shows on a loaded machine. gosct finds it by firing the sleep early and
// reports it as timing-dependent, with what it needs; with no timer fired
// early (--timing strict) it is not found.
func TestVictimSleepForAGoroutine(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var ran bool
		Go(func() { Store(&ran, true) })
		Sleep(time.Millisecond) // "give it a millisecond"
		if !Load(&ran) {
			t.Error("the goroutine did not run")
		}
	})
}

func TestTimingDependentReported(t *testing.T) {
	skipUnderRace(t) // the victim races on purpose
	b := wantBug(t, victim(t, "TestVictimSleepForAGoroutine", wire.Config{Strategy: "random", Schedules: 200, MinimizeNS: int64(5 * time.Second)}), "failure")
	// (Positions in this package's own tests are the runtime's, which
	// reports leave out: the e2e tests of cmd/gosct check them.)
	want := regexp.MustCompile(`^needs the goroutine started at timing_test.go:\d+ to wait 1ms while the test slept`)
	if !want.MatchString(b.Timing) {
		t.Errorf("timing %q, want %s", b.Timing, want)
	}
	first, _, _ := strings.Cut(b.Report, "\n")
	if !strings.Contains(first, "failure, timing-dependent: ") || !strings.HasSuffix(first, "("+b.Timing+")") {
		t.Errorf("first line %q does not say it is timing-dependent and what it needs", first)
	}
	if b.Size == nil || b.Size.EarlyFirings != 1 {
		t.Errorf("size %+v, want one timer fired early", b.Size)
	}
	if !strings.Contains(b.Report, "timer sleep G0 fires early: G1 waits 1ms (stalled)") {
		t.Errorf("the interleaving does not mark the early firing:\n%s", b.Report)
	}
	evs := victim(t, "TestVictimSleepForAGoroutine", wire.Config{Strategy: "random", Schedules: 200, TimerEarly: "0"})
	if bs := bugs(evs); len(bs) != 0 {
		t.Errorf("with no timer fired early: %s", bs[0].Report)
	}
}

// A bug every schedule ends in is not timing-dependent, even when the
// schedule that found it fired a timer early: the shrinking drops the
// early firing.
func TestVictimFailsWhateverTheTime(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var ran bool
		Go(func() { Store(&ran, true) })
		Sleep(time.Millisecond)
		Load(&ran)
		t.Error("always")
	})
}

func TestEarlyFiringDroppedWhenNotNeeded(t *testing.T) {
	skipUnderRace(t) // the victim races on purpose
	// Seeds whose first schedule fires the sleep early: random chooses
	// between the goroutine and the clock with even odds.
	for seed := int64(1); seed <= 20; seed++ {
		evs := victim(t, "TestVictimFailsWhateverTheTime", wire.Config{Strategy: "random", Seed: seed, Schedules: 1, MinimizeNS: int64(5 * time.Second)})
		b := wantBug(t, evs, "failure")
		if b.From == nil || b.From.EarlyFirings == 0 {
			continue // found without an early firing: try the next seed
		}
		if b.Timing != "" || b.Size.EarlyFirings != 0 {
			t.Errorf("timing %q, size %+v: the bug needs no timer fired early", b.Timing, b.Size)
		}
		return
	}
	t.Fatal("no seed of 20 found the bug with a timer fired early")
}

// eventually is testify's assert.Eventually (v1.11): a timeout timer, a
// ticker, and the condition run in a goroutine of its own at each tick.
func eventually(cond func() bool, waitFor, tick time.Duration) bool {
	ch := Chan(make(chan bool, 1))
	timer := NewTimer(waitFor)
	defer TimerStop(timer)
	ticker := NewTicker(tick)
	defer TickerStop(ticker)
	var tickC <-chan time.Time = ticker.C
	for {
		v := OnRecv(ch)
		switch Select(false, OnRecv(timer.C), OnRecv(tickC), v) {
		case 0:
			return false
		case 1:
			tickC = nil
			Go(func() { Send(ch, cond()) })
		case 2:
			if v.Value {
				return true
			}
			tickC = ticker.C
		}
	}
}

// Waiting for a condition a runnable goroutine makes true in a few steps,
// by testify's Eventually or by polling with sleeps: with no timer fired
// early (--timing strict) it holds under every schedule, as on an idle
// machine, however short the wait; with timers fired early, the shortest
// waits fail where the goroutine stalls (a timing-dependent bug).
func TestWaitingForAGoroutineIdle(t *testing.T) {
	set := func(s *settings) { s.timerEarly, s.noStallCharge = 0, true }
	for _, s := range allStrategies {
		t.Run(s, func(t *testing.T) {
			checkWith(t, s, lighter(200), set, func(t *testing.T) {
				var mu sync.Mutex
				done := false
				Go(func() {
					for i := 0; i < 5; i++ {
						Lock(&mu)
						Unlock(&mu)
					}
					Lock(&mu)
					Store(&done, true)
					Unlock(&mu)
				})
				isDone := func() bool {
					Lock(&mu)
					defer Unlock(&mu)
					return Load(&done)
				}
				if !eventually(isDone, time.Millisecond, 100*time.Microsecond) {
					t.Fatal("Condition never satisfied")
				}
				for i := 0; !isDone(); i++ {
					if i == 3 {
						t.Fatal("not done after 3 polls")
					}
					Sleep(10 * time.Microsecond)
				}
			})
		})
	}
}

// testify's Never then Eventually on one channel (jellydator/ttlcache's
// Test_Cache_OnInsertion): Never's timeout is armed before its ticker, so
// on an idle machine it fires before the tick due at the same multiple of
// the tick, and no condition goroutine outlives Never to take the value
// Eventually waits for. With no timer fired early it passes under every
// schedule (timers armed at the same instant made that tick a choice).
func TestNeverThenEventuallyIdle(t *testing.T) {
	set := func(s *settings) { s.timerEarly, s.noStallCharge = 0, true }
	for _, s := range []string{"dfs", "random", "pct"} {
		t.Run(s, func(t *testing.T) {
			checkWith(t, s, lighter(500), set, func(t *testing.T) {
				gate, res := Chan(make(chan struct{})), Chan(make(chan struct{}))
				Go(func() {
					Recv(gate)
					Send(res, struct{}{})
				})
				got := func() bool { return Select(true, OnRecv(res)) == 0 }
				if eventually(got, 200*time.Millisecond, 100*time.Millisecond) {
					t.Fatal("Never: condition satisfied")
				}
				Close(gate)
				if !eventually(got, 500*time.Millisecond, 250*time.Millisecond) {
					t.Fatal("Condition never satisfied")
				}
			})
		})
	}
}

// The interleaving shows the timer fired early that a timing-dependent
// bug needs, though it lies before the last rows the table shows.
func TestInterleavingShowsEarlyFiring(t *testing.T) {
	e := &execution{gs: []*goroutine{{id: 0}}}
	for i := 0; i < 100; i++ {
		e.stepLog.rows = append(e.stepLog.rows, replay.Step{Decision: i + 1, G: 0, Op: "read"})
	}
	e.stepLog.rows[20] = replay.Step{Decision: 21, G: -1, Op: "timer sleep G0 fires early: G1 waits 1ms (stalled)", Early: true}
	if got := interleaving(e, 40); !strings.Contains(got, "fires early") || !strings.Contains(got, "(last 83 steps of 100)") {
		t.Errorf("the table leaves out the early firing:\n%s", got)
	}
}
