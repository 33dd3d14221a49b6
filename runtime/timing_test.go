package runtime

import (
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
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
	b := wantBug(t, victim(t, "TestVictimSleepForAGoroutine", wire.Config{Strategy: "random", Schedules: 200, MinimizeNS: int64(5 * time.Second)}), "failure")
	// (Positions in this package's own tests are the runtime's, which
	// reports leave out: the e2e tests of cmd/gosct check them.)
	want := "needs the goroutine started at timing_test.go:20 to wait 1ms while the test slept"
	if !strings.HasPrefix(b.Timing, want) {
		t.Errorf("timing %q, want %q", b.Timing, want)
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
