package runtime

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// slack is how much virtual time the steps of work of a small test body
// add to a duration read from the clock: every scheduling step and every
// read of the clock costs what Go takes for it, a timer wakes its sleeper
// a little late (costs.go, docs/runtime.md, "Time").
const slack = 10 * time.Microsecond

// within reports whether d is want plus at most slack: strictly more, as
// work between two reads of the clock always takes some time.
func within(d, want time.Duration) bool { return d > want && d <= want+slack }

// A test that sleeps an hour of virtual time finishes at once, and the
// clock says an hour went by, and a little more: the sleep ends strictly
// after an hour.
func TestSleepHourIsVirtual(t *testing.T) {
	real0 := time.Now()
	check(t, "random", 20, func(t *testing.T) {
		start := Now()
		Sleep(time.Hour)
		if d := Since(start); !within(d, time.Hour) {
			t.Errorf("Since = %v, want 1h", d)
		}
		if d := Until(start.Add(2 * time.Hour)); !within(time.Hour, d) {
			t.Errorf("Until = %v, want 1h", d)
		}
	})
	// 20 virtual hours; a real wait of even one would take an hour.
	if d := time.Since(real0); d > time.Minute {
		t.Errorf("20 virtual hours took %v of real time", d)
	}
}

// Now starts near the real time, so values look normal; it never goes
// back, and work takes time: two reads are never equal, and a few steps
// cost a few step costs, not more (no timer is pending to jump to).
func TestNowMovesWithWork(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		a := Now()
		if d := time.Since(a); d < -time.Minute || d > time.Minute {
			t.Errorf("virtual Now %v far from the real time", a)
		}
		b := Now()
		if !b.After(a) {
			t.Errorf("two reads of the clock: %v then %v", a, b)
		}
		c := Chan(make(chan bool))
		Go(func() { Send(c, true) })
		Recv(c)
		if d := Now().Sub(b); d <= 0 || d > time.Microsecond {
			t.Errorf("a few steps took %v of virtual time", d)
		}
	})
}

// Sleepers wake in the order of their deadlines; sleepers due together,
// or close enough for a goroutine to be held back by the early-firing
// window (1 ms) between its wake-up and its next step, act in either order
// (the scheduler decides, as in Go).
func TestOutcomesSleepOrder(t *testing.T) {
	for _, s := range timeOutcomeStrategies {
		t.Run(s, func(t *testing.T) {
			for _, tc := range []struct {
				da, db time.Duration
				want   string
			}{
				{20 * time.Millisecond, 10 * time.Millisecond, "ba"},
				{2 * time.Millisecond, time.Millisecond, "ab,ba"},
				{time.Millisecond, time.Millisecond, "ab,ba"},
			} {
				seen := map[string]bool{}
				check(t, s, 1000, func(t *testing.T) {
					c := Chan(make(chan string))
					Go(func() { Sleep(tc.da); Send(c, "a") })
					Go(func() { Sleep(tc.db); Send(c, "b") })
					seen[Recv(c)+Recv(c)] = true
				})
				if got := strings.Join(keys(seen), ","); got != tc.want {
					t.Errorf("sleeps %v, %v: outcomes %s, want %s", tc.da, tc.db, got, tc.want)
				}
			}
		})
	}
}

// A timeout fires only when nothing else can happen: a result that comes
// always wins, whatever the schedule; a result that never comes times out.
func TestOutcomesTimeout(t *testing.T) {
	for _, s := range timeOutcomeStrategies {
		t.Run(s, func(t *testing.T) {
			for _, send := range []bool{true, false} {
				seen := map[string]bool{}
				check(t, s, 1000, func(t *testing.T) {
					done := Chan(make(chan bool, 1))
					Go(func() {
						Gosched()
						if send {
							Send(done, true)
						}
					})
					c0, c1 := OnRecv(done), OnRecv(After(time.Second))
					switch Select(false, c0, c1) {
					case 0:
						seen["done"] = true
					case 1:
						seen["timeout"] = true
						if c1.Value.IsZero() {
							t.Error("zero time received from After")
						}
					}
				})
				want := "timeout"
				if send {
					want = "done"
				}
				if got := strings.Join(keys(seen), ","); got != want {
					t.Errorf("send=%v: outcomes %s, want %s", send, got, want)
				}
			}
		})
	}
}

// Every goroutine blocked, but a timer pending: not a deadlock, the clock
// jumps.
func TestPendingTimerIsNotDeadlock(t *testing.T) {
	check(t, "random", 50, func(t *testing.T) {
		c := Chan(make(chan int))
		Go(func() {
			Sleep(time.Second)
			Send(c, 1)
		})
		if v := Recv(c); v != 1 {
			t.Errorf("got %d", v)
		}
	})
}

// Sleep(0) and negative sleeps return at once: the clock moves only by the
// steps' cost.
func TestSleepNonPositive(t *testing.T) {
	check(t, "random", 10, func(t *testing.T) {
		a := Now()
		Sleep(0)
		Sleep(-time.Second)
		if d := Since(a); !within(d, 0) {
			t.Errorf("clock moved by %v", d)
		}
	})
}

// Timer.Stop and Reset return values and the Go 1.23 guarantee that no
// stale value is received after they return.
func TestTimerStopReset(t *testing.T) {
	check(t, "random", 10, func(t *testing.T) {
		tm := NewTimer(time.Second)
		if !TimerStop(tm) {
			t.Error("Stop of a pending timer = false")
		}
		if TimerStop(tm) {
			t.Error("second Stop = true")
		}
		if TimerReset(tm, time.Second) {
			t.Error("Reset of a stopped timer = true")
		}
		start := Now()
		v := Recv(tm.C)
		if d := Since(start); !within(d, time.Second) || !within(Now().Sub(v), 0) {
			t.Errorf("fired after %v with %v, want 1s at %v", d, v, Now())
		}
		if TimerStop(tm) {
			t.Error("Stop after the value was received = true")
		}

		// Fired while nobody received: the value waits in the channel;
		// Stop reports it (true) and drains it.
		tm = NewTimer(time.Second)
		Sleep(2 * time.Second)
		if !TimerStop(tm) {
			t.Error("Stop of a fired, unreceived timer = false")
		}
		c0 := OnRecv(tm.C)
		if Select(true, c0) != -1 {
			t.Error("stale value received after Stop")
		}

		// Reset of a fired, unreceived timer: true, and the next value is
		// the new one.
		tm = NewTimer(time.Second)
		Sleep(2 * time.Second)
		if !TimerReset(tm, time.Second) {
			t.Error("Reset of a fired, unreceived timer = false")
		}
		start = Now()
		Recv(tm.C)
		if d := Since(start); !within(d, time.Second) {
			t.Errorf("reset timer fired after %v", d)
		}

		// A timer due now has its value ready at once.
		tm = NewTimer(0)
		if Select(true, OnRecv(tm.C)) != 0 {
			t.Error("NewTimer(0) not ready")
		}
	})
}

// Tickers tick every period; a slow receiver gets one buffered tick and
// the others are dropped; Reset changes the period; Stop stops.
func TestTicker(t *testing.T) {
	check(t, "random", 10, func(t *testing.T) {
		start := Now()
		tk := NewTicker(time.Second)
		for i := 1; i <= 3; i++ {
			v := Recv(tk.C)
			if d := v.Sub(start); !within(d, time.Duration(i)*time.Second) {
				t.Errorf("tick %d at %v", i, d)
			}
		}
		Sleep(3500 * time.Millisecond) // now 6.5s: ticks 4, 5, 6 due
		v := Recv(tk.C)
		if d := v.Sub(start); !within(d, 4*time.Second) {
			t.Errorf("buffered tick at %v, want 4s", d)
		}
		if Select(true, OnRecv(tk.C)) != -1 {
			t.Error("more than one tick kept for a slow receiver")
		}
		v = Recv(tk.C)
		if d := v.Sub(start); !within(d, 7*time.Second) {
			t.Errorf("next tick at %v, want 7s", d)
		}
		reset := Now()
		TickerReset(tk, 10*time.Second)
		v = Recv(tk.C)
		if d := v.Sub(reset); !within(d, 10*time.Second) {
			t.Errorf("tick after Reset at %v after it, want 10s", d)
		}
		TickerStop(tk)
		Sleep(time.Minute)
		if Select(true, OnRecv(tk.C)) != -1 {
			t.Error("tick after Stop")
		}
		if Tick(0) != nil {
			t.Error("Tick(0) != nil")
		}
	})
}

// AfterFunc runs f in a goroutine of its own when the timer fires; Stop
// before prevents it; Reset after it ran schedules it again.
func TestAfterFunc(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		ran := Chan(make(chan time.Duration, 2))
		start := Now()
		tm := AfterFunc(time.Second, func() { Send(ran, Since(start)) })
		if d := Recv(ran); !within(d, time.Second) {
			t.Errorf("f ran at %v", d)
		}
		if TimerStop(tm) {
			t.Error("Stop after f started = true")
		}
		if TimerReset(tm, time.Second) {
			t.Error("Reset after f started = true")
		}
		if d := Recv(ran); !within(d, 2*time.Second) {
			t.Errorf("f ran again at %v", d)
		}
		stopped := AfterFunc(time.Second, func() { Send(ran, -1) })
		if !TimerStop(stopped) {
			t.Error("Stop of a pending AfterFunc = false")
		}
		Sleep(time.Hour)
		if n := Len(ran); n != 0 {
			t.Errorf("stopped f ran (%d values)", n)
		}
	})
}

// AfterFunc's f runs concurrently with the goroutine that set it up: both
// orders of their effects are reachable.
func TestOutcomesAfterFuncZero(t *testing.T) {
	for _, s := range timeOutcomeStrategies {
		t.Run(s, func(t *testing.T) {
			seen := map[string]bool{}
			check(t, s, 1000, func(t *testing.T) {
				c := Chan(make(chan string, 2))
				done := Chan(make(chan bool))
				AfterFunc(0, func() { Send(c, "f"); Send(done, true) })
				Send(c, "m")
				Recv(done)
				seen[Recv(c)+Recv(c)] = true
			})
			if got := strings.Join(keys(seen), ","); got != "fm,mf" {
				t.Errorf("outcomes %s, want fm,mf", got)
			}
		})
	}
}

// Outside an execution the hooks are the real functions.
func TestTimePassThrough(t *testing.T) {
	if active.Load() != nil {
		t.Skip("an execution is active")
	}
	before := time.Now()
	now := Now()
	if now.Before(before) || time.Since(now) > time.Minute {
		t.Errorf("Now %v, real %v", now, before)
	}
	start := time.Now()
	Sleep(time.Millisecond)
	if d := time.Since(start); d < time.Millisecond {
		t.Errorf("Sleep(1ms) took %v", d)
	}
	tm := NewTimer(time.Millisecond)
	<-tm.C
	if TimerStop(tm) {
		t.Error("Stop of a fired real timer = true")
	}
	if TimerReset(tm, time.Hour) {
		t.Error("Reset of an expired real timer = true")
	}
	if !TimerStop(tm) {
		t.Error("Stop of a pending real timer = false")
	}
	<-After(time.Millisecond)
	tk := NewTicker(time.Millisecond)
	<-tk.C
	TickerReset(tk, time.Millisecond)
	<-tk.C
	TickerStop(tk)
	done := make(chan bool)
	AfterFunc(time.Millisecond, func() { close(done) })
	<-done
	if d := Since(start); d < 4*time.Millisecond {
		t.Errorf("Since = %v", d)
	}
	if Until(time.Now().Add(time.Hour)) <= 0 {
		t.Error("Until")
	}
}

// A virtual timer kept from an earlier execution behaves as a stopped one
// (the real methods would panic on it).
func TestTimerFromEarlierExecution(t *testing.T) {
	var tm *time.Timer
	var tk *time.Ticker
	check(t, "random", 1, func(t *testing.T) {
		tm = NewTimer(time.Hour)
		tk = NewTicker(time.Hour)
	})
	if TimerStop(tm) || TimerReset(tm, time.Second) {
		t.Error("leftover timer reported active")
	}
	TickerStop(tk)
	TickerReset(tk, time.Second)
}

func TestVictimTimeoutLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		result := Chan(make(chan int)) // unbuffered: the classic bug
		Go(func() {
			Sleep(2 * time.Second) // slower than the timeout
			Send(result, 1)
		})
		c0, c1 := OnRecv(result), OnRecv(After(time.Second))
		Select(false, c0, c1)
	})
}

// The worker outlives the test's timeout and blocks forever on its send.
func TestTimeoutLeakFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimTimeoutLeak", wire.Config{Strategy: "random", Schedules: 10}), "leak")
	if !strings.Contains(b.Message, "chan send") {
		t.Errorf("message %q", b.Message)
	}
}

func TestVictimStoppedTimerLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		tm := NewTimer(time.Second)
		Go(func() { Recv(tm.C) })
		TimerStop(tm)
	})
}

// A goroutine waiting on a stopped timer waits forever.
func TestStoppedTimerLeakFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimStoppedTimerLeak", wire.Config{Strategy: "random", Schedules: 10}), "leak")
	if !strings.Contains(b.Message, "chan receive") {
		t.Errorf("message %q", b.Message)
	}
}

// A goroutine ranging over a ticker that is never stopped outlives its test
// but is not blocked for ever (the ticker wakes it, as in real Go): not a
// leak (see leak_timers.go), and the execution ends without running it
// forever.
func TestTickerDaemonNotLeak(t *testing.T) {
	real0 := time.Now()
	check(t, "random", 10, func(t *testing.T) {
		tk := NewTicker(time.Millisecond) // never stopped
		stop := Chan(make(chan struct{})) // never closed: a daemon waiting to be stopped
		Go(func() {
			for {
				c0, c1 := OnRecv(tk.C), OnRecv(stop)
				if Select(false, c0, c1) == 1 {
					return
				}
			}
		})
		Sleep(10 * time.Millisecond)
	})
	if d := time.Since(real0); d > time.Minute {
		t.Errorf("took %v", d)
	}
}

// A goroutine blocked on the stop channel of a janitor that is still
// alive (its ticker wakes it) is reachable by the janitor, which may close
// the channel: not leaked, as in Go's leak detector (goleak would report
// both goroutines).
func TestTickerSelectWaiterNotLeak(t *testing.T) {
	check(t, "random", 10, func(t *testing.T) {
		tk := NewTicker(time.Millisecond)
		stop := Chan(make(chan struct{}))
		Go(func() { // a janitor: nobody closes stop, the ticker wakes it
			for {
				c0, c1 := OnRecv(tk.C), OnRecv(stop)
				if Select(false, c0, c1) == 1 {
					return
				}
			}
		})
		Go(func() { Recv(stop) })
	})
}

func TestVictimTickerSelectLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		tk := NewTicker(time.Millisecond)
		stop := Chan(make(chan struct{}))
		Go(func() { // a janitor: nobody closes stop, the ticker wakes it
			for {
				c0, c1 := OnRecv(tk.C), OnRecv(stop)
				if Select(false, c0, c1) == 1 {
					return
				}
			}
		})
		other := Chan(make(chan struct{}))
		Go(func() { Recv(other) }) // nothing ever wakes this one
	})
}

// Only the goroutine that nothing can wake is reported.
func TestTickerSelectOnlyStuckLeakFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimTickerSelectLeak", wire.Config{Strategy: "random", Schedules: 10}), "leak")
	if !strings.Contains(b.Message, "1 goroutine(s)") || !strings.Contains(b.Message, "chan receive") {
		t.Errorf("message %q", b.Message)
	}
}

func TestVictimDeadlockAfterTimer(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		c := Chan(make(chan int))
		Go(func() {
			Recv(After(time.Hour))
			Recv(c)
		})
		Recv(c)
	})
}

// Both goroutines blocked but a timer pending: not a deadlock yet. Once
// it has fired, nothing can move: a deadlock.
func TestDeadlockAfterTimerFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimDeadlockAfterTimer", wire.Config{Strategy: "random", Schedules: 5}), "deadlock")
	if b.Schedule != 1 {
		t.Errorf("bug %+v", b)
	}
}

func TestVictimTimeoutFailure(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		result := Chan(make(chan int, 1))
		ready := Chan(make(chan bool, 1))
		Go(func() { Send(ready, true) })
		Go(func() {
			// Bug: gives up if the other goroutine has not run yet.
			if Select(true, OnRecv(ready)) == 0 {
				Send(result, 1)
			}
		})
		c0, c1 := OnRecv(result), OnRecv(After(time.Second))
		if Select(false, c0, c1) == 1 {
			t.Fatal("timed out waiting for the result")
		}
	})
}

// The test's timeout fires in the schedules where the result never comes:
// a failure, found without waiting a real second per schedule.
func TestTimeoutFailureFound(t *testing.T) {
	wantBug(t, victim(t, "TestVictimTimeoutFailure", wire.Config{Strategy: "random", Schedules: 100}), "failure")
}

// BenchmarkSleepVirtual is the cost of a virtual sleep: block, jump the
// clock, wake.
func BenchmarkSleepVirtual(b *testing.B) {
	set := defaultSettings
	set.maxSteps = 1 << 62 // b.N sleeps are b.N decisions
	e := newExecution(sameFirst{}, set, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.runTest(nil, func(*testing.T) {
			start := Now()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				Sleep(time.Millisecond)
			}
			b.StopTimer()
			if d := Since(start); d != time.Duration(b.N)*time.Millisecond {
				b.Errorf("slept %v virtual, want %v", d, time.Duration(b.N)*time.Millisecond)
			}
		})
	}()
	<-done
	if e.bug != nil {
		b.Fatal(e.bug.report())
	}
}

// Timers left pending and tickers never stopped die with their execution: goroutines and the heap stay flat across
// executions.
func TestTimersDoNotAccumulate(t *testing.T) {
	body := func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), time.Hour)
		_ = cancel
		NewTicker(time.Second)
		AfterFunc(time.Hour, func() {})
		tm := NewTimer(time.Minute)
		Go(func() { Recv(ctx.Done()) }) // ends with the cancel below
		Send(Chan(make(chan int, 1)), 1)
		TimerStop(tm)
		cancel()
	}
	check(t, "random", 50, body) // warm up
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	g0 := runtime.NumGoroutine()
	check(t, "random", 2000, body)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if g1 := runtime.NumGoroutine(); g1 > g0+5 {
		t.Errorf("goroutines: %d before, %d after 2000 executions", g0, g1)
	}
	if grow := int64(m1.HeapAlloc) - int64(m0.HeapAlloc); grow > 4<<20 {
		t.Errorf("heap grew by %d bytes over 2000 executions", grow)
	}
}

// A bug that depends on the virtual clock replays from its trace.
func TestTimeBugReplays(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimTimeoutFailure", wire.Config{Strategy: "random", Seed: 3, Schedules: 100}), "failure")
	for i := 0; i < 5; i++ {
		r := wantBug(t, victim(t, "TestVictimTimeoutFailure", wire.Config{Mode: "replay", Trace: b.Trace}), "failure")
		if !r.Replayed {
			t.Fatalf("replay %d: %+v", i, r)
		}
	}
}

func TestVictimTickerOnlyLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		tk := NewTicker(time.Millisecond)
		Go(func() { // wakes for ever, never gets anywhere else
			for {
				Recv(tk.C)
			}
		})
	})
}

// A goroutine whose only way on is a ticker is a leak, though the ticker
// keeps waking it.
func TestTickerOnlyLeakFound(t *testing.T) {
	wantBug(t, victim(t, "TestVictimTickerOnlyLeak", wire.Config{Strategy: "random", Schedules: 5}), "leak")
}

// TestNilTimerPanicsAsInGo checks that Stop and Reset of a nil timer (an
// AfterFunc's function that fires before its timer is stored) panic with
// Go's nil dereference, inside an execution and out of one.
func TestNilTimerPanicsAsInGo(t *testing.T) {
	var timer *time.Timer
	var ticker *time.Ticker
	calls := map[string]func(){
		"Timer.Stop":   func() { TimerStop(timer) },
		"Timer.Reset":  func() { TimerReset(timer, time.Second) },
		"Ticker.Reset": func() { TickerReset(ticker, time.Second) },
	}
	recovered := func(f func()) (r any) {
		defer func() { r = recover() }()
		f()
		return nil
	}
	for name, f := range calls {
		if r := recovered(f); r == nil || !strings.Contains(fmt.Sprint(r), "nil pointer dereference") {
			t.Errorf("%s outside an execution: recovered %v, want a nil pointer dereference", name, r)
		}
		var inside any
		check(t, "random", 1, func(t *testing.T) { inside = recovered(f) })
		if inside == nil || !strings.Contains(fmt.Sprint(inside), "nil pointer dereference") {
			t.Errorf("%s in an execution: recovered %v, want a nil pointer dereference", name, inside)
		}
	}
}
