package runtime

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

// The time model (time.go, docs/runtime.md "Time"): timers that fire while
// goroutines run, at a strategy's choice; time that moves with work; no
// false alarm for a generous timeout.

// allStrategies are the strategies a property of the model must hold
// under: each decides the Clock choice in its own way.
var allStrategies = []string{"random", "pct", "dfs", "pb", "db", "dfsrb", "portfolio"}

// timeOutcomeStrategies must each reach every outcome of the time model's
// outcome tests: dfs by running every schedule, dpor one per trace, timers
// firing early at their choice.
var timeOutcomeStrategies = []string{"dfs", "dpor"}

// lighter scales the schedules of the model's long tests under -race,
// where every step costs about ten times as much: fewer schedules of the
// same executions keep CI's -race run within its limit.
func lighter(n int) int {
	if raceEnabled {
		return max(2, n/10)
	}
	return n
}

// A test that waits for work that completes, with a long timeout, never
// times out, whatever the strategy and however much work there is: timers
// fire at most timerEarly ahead of the work done, and a step of work costs
// stepCost (100,000 steps are a millisecond). The long computation runs
// past the fairness window (20,000 steps) while the test goroutine is
// runnable: under pct and the systematic strategies it starves it first.
func TestLongTimeoutOnCompletedWork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs long computations under every strategy (the whole suite runs it)")
	}
	for _, s := range allStrategies {
		n := 200
		switch s {
		case "pb", "db":
			n = 8 // their search is slow on long executions (strategies/search.go)
		case "portfolio":
			n = 40
		}
		t.Run(s, func(t *testing.T) {
			check(t, s, lighter(n), func(t *testing.T) {
				done := Chan(make(chan struct{}))
				var mu sync.Mutex
				var wg sync.WaitGroup
				n := 0
				for i := 0; i < 2; i++ {
					Add(&wg, 1)
					Go(func() {
						defer Done(&wg)
						for j := 0; j < 50; j++ {
							Lock(&mu)
							Store(&n, Load(&n)+1)
							Unlock(&mu)
						}
					})
				}
				Go(func() {
					Wait(&wg)
					Close(done)
				})
				heavy := Chan(make(chan struct{}))
				Go(func() { // a long computation: 60,000 steps
					x := 0
					for j := 0; j < 30_000; j++ {
						Store(&x, Load(&x)+1)
					}
					Close(heavy)
				})
				c0, c1 := OnRecv(done), OnRecv(After(10*time.Second))
				if Select(false, c0, c1) == 1 {
					t.Fatal("timeout")
				}
				c0, c1 = OnRecv(heavy), OnRecv(After(10*time.Second))
				if Select(false, c0, c1) == 1 {
					t.Fatal("timeout")
				}
			})
		})
	}
}

// A goroutine that spins beside one that sleeps and then stops it is
// explored to its end, whatever the sleep and the strategy: the sleep ends
// (by work, at the strategy's choice, or because the spinner only spins),
// and the execution is neither too long to explore nor a livelock.
func TestSpinnerBesideSleeperExplored(t *testing.T) {
	if testing.Short() {
		t.Skip("explores three durations under four strategies (the whole suite runs it)")
	}
	for _, d := range []time.Duration{time.Microsecond, time.Millisecond, time.Hour} {
		for _, s := range []string{"random", "pct", "dfs", "portfolio"} {
			t.Run(s+"/"+d.String(), func(t *testing.T) {
				x := check(t, s, lighter(30), func(t *testing.T) {
					stop := Chan(make(chan struct{}))
					Go(func() {
						Sleep(d)
						Close(stop)
					})
					spins := 0
					for {
						if Select(true, OnRecv(stop)) == 0 {
							break
						}
						spins++
					}
				})
				if x.stopped != "" {
					t.Errorf("exploration stopped: %s", x.stopped)
				}
			})
		}
	}
}

// A spinner that reads a shared flag (every read a scheduling point that
// changes nothing) beside a sleeper that sets it.
func TestFlagSpinnerBesideSleeperExplored(t *testing.T) {
	skipRace(t) // the flag is read and written without synchronization
	x := check(t, "pct", lighter(20), func(t *testing.T) {
		var stop bool
		Go(func() {
			Sleep(time.Minute)
			Store(&stop, true)
		})
		for !Load(&stop) {
		}
	})
	if x.stopped != "" {
		t.Errorf("exploration stopped: %s", x.stopped)
	}
}

// A short timer fires in the middle of other work, at every point a
// systematic search chooses: Stop before the expiry returns true, after it
// false, and both happen (issue class 1).
func TestOutcomesTimerFiresMidWork(t *testing.T) {
	skipRace(t) // step is read by the timer's goroutine unsynchronized
	for _, s := range timeOutcomeStrategies {
		t.Run(s, func(t *testing.T) {
			seen := map[string]bool{}
			x := check(t, s, 5000, func(t *testing.T) {
				fired := Chan(make(chan int, 1))
				var step int
				tm := AfterFunc(time.Millisecond, func() { Send(fired, Load(&step)) })
				for i := 1; i <= 3; i++ {
					Store(&step, i)
				}
				if TimerStop(tm) {
					seen["stopped"] = true
					return
				}
				seen["fired at "+itoa(Recv(fired))] = true
			})
			want := "fired at 0,fired at 1,fired at 2,fired at 3,stopped"
			if got := strings.Join(keys(seen), ","); got != want {
				t.Errorf("outcomes %s, want %s (%d schedules)", got, want, x.schedules)
			}
		})
	}
}

// A ticker ticks while the goroutine that reads it polls between steps of
// work: a poll with default sees a tick that fell due (Go 1.23 timer
// channels), not only when everything is blocked. (Three ticks of 300 µs
// fit in the early-firing window of 1 ms.)
func TestOutcomesTickerPolledMidWork(t *testing.T) {
	for _, s := range timeOutcomeStrategies {
		t.Run(s, func(t *testing.T) {
			seen := map[string]bool{}
			check(t, s, 5000, func(t *testing.T) {
				tk := NewTicker(300 * time.Microsecond)
				defer TickerStop(tk)
				var n int
				ticks := 0
				for i := 0; i < 3; i++ {
					Store(&n, i)
					if Select(true, OnRecv(tk.C)) == 0 {
						ticks++
					}
				}
				seen[itoa(ticks)] = true
			})
			if got := strings.Join(keys(seen), ","); got != "0,1,2,3" {
				t.Errorf("ticks seen %s, want 0,1,2,3", got)
			}
		})
	}
}

// Timers due at the same instant release their goroutines so that these
// interleave, not one after the other ran to a block (issue class 3).
func TestOutcomesSameInstantTimersInterleave(t *testing.T) {
	for _, s := range timeOutcomeStrategies {
		t.Run(s, func(t *testing.T) {
			seen := map[string]bool{}
			check(t, s, 5000, func(t *testing.T) {
				log := Chan(make(chan string, 4))
				done := Chan(make(chan bool, 2))
				for _, name := range []string{"a", "b"} {
					AfterFunc(time.Second, func() {
						Send(log, name+"1")
						Send(log, name+"2")
						Send(done, true)
					})
				}
				Recv(done)
				Recv(done)
				s := ""
				for i := 0; i < 4; i++ {
					s += Recv(log)
				}
				seen[s] = true
			})
			for _, want := range []string{"a1a2b1b2", "a1b1a2b2", "b1a1b2a2", "b1b2a1a2"} {
				if !seen[want] {
					t.Errorf("order %s never seen; seen %v", want, keys(seen))
				}
			}
		})
	}
}

// Timers whose deadlines are farther apart than the early-firing window
// fire in deadline order, and time never goes back.
func TestTimersFireInDeadlineOrder(t *testing.T) {
	check(t, "random", 300, func(t *testing.T) {
		out := Chan(make(chan time.Duration, 3))
		start := Now()
		for _, d := range []time.Duration{30 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond} {
			AfterFunc(d, func() { Send(out, Since(start)) })
		}
		prev := time.Duration(0)
		for i := 0; i < 3; i++ {
			d := Recv(out)
			if d < prev {
				t.Fatalf("time went back: %v after %v", d, prev)
			}
			if want := time.Duration(i+1) * 10 * time.Millisecond; d < want || d > want+DefaultTimerEarly+slack {
				t.Errorf("timer %d seen at %v, want about %v", i, d, want)
			}
			prev = d
		}
	})
}

// A sleep of d ends strictly after d: code that checks that a cooldown
// has passed after sleeping it sees it passed, as in Go (issue class 7).
func TestSleepEndsStrictlyAfter(t *testing.T) {
	check(t, "random", 50, func(t *testing.T) {
		for _, d := range []time.Duration{time.Nanosecond, time.Millisecond, time.Second} {
			last := Now()
			Sleep(d)
			if !Now().After(last.Add(d)) {
				t.Errorf("after Sleep(%v) the clock reads %v later", d, Since(last))
			}
		}
	})
}

// With early firing turned off (--timer-early 0), timers fire only when
// every goroutine is blocked, as in testing/synctest: a result that comes
// always wins over a 1 ms timeout.
func TestTimerEarlyOff(t *testing.T) {
	c := &wire.Config{Mode: "explore", Strategy: "dfs", Schedules: 2000, Seed: 1, TraceDir: t.TempDir(), TimerEarly: "0"}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	x.explore(func(t *testing.T) {
		done := Chan(make(chan bool, 1))
		Go(func() { Send(done, true) })
		if Select(false, OnRecv(done), OnRecv(After(time.Millisecond))) == 1 {
			t.Error("timeout fired early")
		}
	})
	if !x.exhausted {
		t.Errorf("not exhausted in %d schedules", x.schedules)
	}
}

// Real time spent in uncontrolled code (here a real sleep, shorter than
// the watchdog's patience) reaches the virtual clock: a timeout racing
// with it fires first (issue class 6), and the trace replays it. The sleep
// is well apart from the timer (and from pollGrace): a replay runs the
// uncontrolled code again, and only durations that are clearly ordered
// come back in the same order (docs/limitations.md).
func TestVictimUncontrolledTimeCharged(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		done := Chan(make(chan bool, 1))
		Go(func() {
			time.Sleep(150 * time.Millisecond) // uncontrolled: the real one
			Send(done, true)
		})
		if Select(false, OnRecv(done), OnRecv(After(20*time.Millisecond))) == 1 {
			t.Fatal("timed out")
		}
	})
}

func TestUncontrolledTimeCharged(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimUncontrolledTimeCharged", wire.Config{Strategy: "random", Schedules: 5}), "failure")
	// The replay runs the uncontrolled code again: on a loaded machine
	// the watchdog may see it late and the order of its return and the
	// timer may differ. gosct confirms such a bug in up to three fresh
	// replays (cmd/gosct, confirmTries); so does this test.
	var last []wire.Event
	for try := 0; try < 3; try++ {
		last = victim(t, "TestVictimUncontrolledTimeCharged", wire.Config{Mode: "replay", Trace: b.Trace})
		if wantBug(t, last, "failure").Replayed {
			return
		}
	}
	t.Errorf("not replayed in 3 tries: %+v", last)
}

// A generous timeout around work in uncontrolled code that completes does
// not fire: while a goroutine of the test is at work there, the clock waits
// for it up to the timer's distance (idle.go, timerWait) instead of jumping
// to the timer.
func TestLongTimeoutOnUncontrolledWork(t *testing.T) {
	check(t, "random", 3, func(t *testing.T) {
		done := Chan(make(chan bool))
		Go(func() {
			time.Sleep(60 * time.Millisecond) // uncontrolled: the real one
			Send(done, true)
		})
		if Select(false, OnRecv(done), OnRecv(After(10*time.Second))) == 1 {
			t.Fatal("timed out")
		}
	})
}

// A goroutine still at work in uncontrolled code when the test returns is
// waited for: when it comes back and blocks for ever, it is leaked.
func TestVictimDetachedLeaksAfterReturn(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		ch := Chan(make(chan int))
		Go(func() {
			time.Sleep(40 * time.Millisecond) // uncontrolled: the real one
			Send(ch, 1)
		})
	})
}

func TestDetachedLeaksAfterReturn(t *testing.T) {
	wantBug(t, victim(t, "TestVictimDetachedLeaksAfterReturn", wire.Config{Strategy: "random", Schedules: 2}), "leak")
}

// The contexts a loop of timeouts makes and cancels leave the clock's
// watch list at once: a loop of 30,000 of them does not cost 30,000 list
// entries at every move of the clock (issue class 8; the cost is in
// BenchmarkTimeoutLoop).
func TestCancelledContextsLeaveTheClock(t *testing.T) {
	check(t, "random", 2, func(t *testing.T) {
		parent, cancelParent := WithCancel(context.Background())
		defer cancelParent()
		for i := 0; i < 30_000; i++ {
			ctx, cancel := WithTimeout(parent, time.Second)
			if ctx.Err() != nil {
				t.Fatal(ctx.Err())
			}
			cancel()
		}
		e, _ := enter()
		e.mu.Lock()
		n, h := len(e.clock.ctxs), len(e.clock.heap)
		e.mu.Unlock()
		if n != 0 || h != 0 {
			t.Errorf("%d contexts watched, %d timers pending after every context was cancelled", n, h)
		}
	})
}

// BenchmarkTimeoutLoop is a loop of timeouts, each cancelled, the clock
// moving at every iteration (a sleep): linear in the number of iterations.
func BenchmarkTimeoutLoop(b *testing.B) {
	set := defaultSettings
	set.maxSteps = 1 << 62
	e := newExecution(sameFirst{}, set, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.runTest(nil, func(*testing.T) {
			parent, cancelParent := WithCancel(context.Background())
			defer cancelParent()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ctx, cancel := WithTimeout(parent, time.Second)
				Sleep(time.Microsecond)
				if ctx.Err() != nil {
					b.Error(ctx.Err())
				}
				cancel()
			}
			b.StopTimer()
		})
	}()
	<-done
	if e.bug != nil {
		b.Fatal(e.bug.report())
	}
}

func TestVictimPartialDeadlock(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var a, b sync.Mutex
		Go(func() { Lock(&a); Gosched(); Lock(&b); Unlock(&b); Unlock(&a) })
		Go(func() { Lock(&b); Gosched(); Lock(&a); Unlock(&a); Unlock(&b) })
		// A server loop that never returns: the test goes on for ever.
		tk := NewTicker(time.Millisecond)
		for {
			Recv(tk.C)
		}
	})
}

// Two goroutines each waiting for the lock the other holds are blocked
// for ever, whatever the rest does: found while the test goes on (it never
// returns: a server loop), not reported as too long to explore.
func TestPartialDeadlockFound(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimPartialDeadlock", wire.Config{Strategy: "random", Schedules: 50}), "deadlock")
	if !strings.Contains(b.Message, "2 goroutine(s) blocked for ever") {
		t.Errorf("message %q", b.Message)
	}
}

// The early-firing window bounds the smallest timeout that is safe on
// work that completes: above --timer-early plus the work's own time (a few
// hundred steps here: microseconds) a timeout never fires first; below
// it, as under go test on a loaded machine, it may.
func TestShortTimeoutsOnCompletedWork(t *testing.T) {
	for _, tc := range []struct {
		timeout  time.Duration
		mayFire  bool
		strategy string
	}{
		{2 * time.Millisecond, false, "dfs"},
		{2 * time.Millisecond, false, "pct"},
		{50 * time.Millisecond, false, "random"},
		{500 * time.Microsecond, true, "dfs"},
	} {
		fired := false
		x := check(t, tc.strategy, 3000, func(t *testing.T) {
			done := Chan(make(chan struct{}))
			var mu sync.Mutex
			n := 0
			Go(func() {
				for i := 0; i < 20; i++ {
					Lock(&mu)
					Store(&n, Load(&n)+1)
					Unlock(&mu)
				}
				Close(done)
			})
			if Select(false, OnRecv(done), OnRecv(After(tc.timeout))) == 1 {
				fired = true
			}
		})
		if fired != tc.mayFire {
			t.Errorf("timeout %v under %s (%d schedules): fired %v, want %v", tc.timeout, tc.strategy, x.schedules, fired, tc.mayFire)
		}
	}
}

// Real time charged to the clock is measured once per prefix: dfs runs
// the previous execution's decisions again before it branches, and there
// the program reads the time it read then, however long the machine took
// this time. Measured afresh, the uncontrolled work's charge differs from
// one execution to the next, and a program that branches on the time
// would take another path under the same decisions.
func TestPrefixKeepsItsCharges(t *testing.T) {
	c := &wire.Config{Mode: "explore", Strategy: "dfs", Schedules: 12, Seed: 1, TraceDir: t.TempDir()}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	var reads []time.Duration
	x.explore(func(t *testing.T) {
		start := Now()
		Gosched()
		// Uncontrolled work, on every schedule's common prefix: the
		// schedules differ only in what follows.
		for until := time.Now().Add(20 * time.Millisecond); time.Now().Before(until); {
		}
		Gosched()
		reads = append(reads, Since(start))
		ch := Chan(make(chan int))
		Go(func() { Send(ch, 1) })
		Go(func() { Send(ch, 2) })
		Recv(ch)
		Recv(ch)
	})
	if len(reads) < 3 {
		t.Fatalf("%d schedules: the test needs several", len(reads))
	}
	if reads[0] < 50*time.Microsecond {
		// The watchdog charges only what it saw (charge.go); a machine
		// too loaded to let it look leaves nothing to compare.
		t.Skipf("20 ms of work charged %v: the watchdog did not look, nothing to compare", reads[0])
	}
	for i, d := range reads {
		if d != reads[0] {
			t.Errorf("schedule %d read %v after the work, schedule 1 %v", i+1, d, reads[0])
		}
	}
}
