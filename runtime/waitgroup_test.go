package runtime

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

func TestWaitGroupPassThrough(t *testing.T) {
	var wg sync.WaitGroup
	n := 0
	var mu sync.Mutex
	for i := 0; i < 3; i++ {
		Add(&wg, 1)
		go func() {
			defer Done(&wg)
			Lock(&mu)
			n++
			Unlock(&mu)
		}()
	}
	Wait(&wg)
	WaitGroupGo(&wg, func() { Lock(&mu); n++; Unlock(&mu) })
	Wait(&wg)
	if n != 4 {
		t.Fatalf("n = %d after Wait", n)
	}
}

// In a process where no execution has run, a pass-through Done below zero
// panics as Go's does (see addLeftover for afterwards).
func TestVictimNegativePassThrough(t *testing.T) {
	victimOnly(t)
	var wg sync.WaitGroup
	defer func() { t.Logf("recovered: %v", recover()) }()
	Done(&wg)
}

func TestNegativePassThrough(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestVictimNegativePassThrough$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), victimEnv+"=1")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "recovered: "+msgNegative) {
		t.Errorf("output:\n%s", out)
	}
}

// Wait returns only when every Done has happened, under every schedule.
func TestWaitGroupWaits(t *testing.T) {
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		var wg sync.WaitGroup
		var mu sync.Mutex
		n := 0
		for i := 0; i < 2; i++ {
			Add(&wg, 1)
			Go(func() {
				Lock(&mu)
				n++
				Unlock(&mu)
				Done(&wg)
			})
		}
		Wait(&wg)
		return itoa(n)
	}), "2")
}

func TestWaitGroupGo(t *testing.T) {
	check(t, "random", 100, func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		n := 0
		for i := 0; i < 3; i++ {
			WaitGroupGo(&wg, func() { Lock(&mu); n++; Unlock(&mu) })
		}
		Wait(&wg)
		if n != 3 {
			t.Errorf("n = %d after Wait", n)
		}
	})
}

// The classic mistake: Add inside the goroutine. Wait may return before
// the goroutines have started.
func TestVictimAddInGoroutine(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		n := 0
		for i := 0; i < 2; i++ {
			Go(func() {
				Add(&wg, 1)
				defer Done(&wg)
				Lock(&mu)
				n++
				Unlock(&mu)
			})
		}
		Wait(&wg)
		Lock(&mu)
		defer Unlock(&mu)
		if n != 2 {
			t.Errorf("n = %d after Wait", n)
		}
	})
}

func TestAddInGoroutineFailure(t *testing.T) {
	wantBug(t, victim(t, "TestVictimAddInGoroutine", wire.Config{Strategy: "dfs"}), "failure")
}

func TestVictimNegativeCounter(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var wg sync.WaitGroup
		done := Chan(make(chan bool))
		Add(&wg, 1)
		Go(func() { Done(&wg); Send(done, true) })
		Done(&wg)
		Recv(done)
	})
}

func TestNegativeCounterPanic(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimNegativeCounter", wire.Config{Strategy: "dfs"}), "panic")
	if !strings.Contains(b.Message, msgNegative) {
		t.Errorf("message %q", b.Message)
	}
}

// A new round of Add while the previous Wait has not returned: Go panics,
// in Add or in Wait depending on the timing; both are reachable.
func TestVictimWaitGroupReuse(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var wg sync.WaitGroup
		Add(&wg, 1)
		done := Chan(make(chan bool))
		Go(func() { Done(&wg) })
		Go(func() {
			Wait(&wg)
			Send(done, true)
		})
		waitBlocked(1) // the waiter
		Go(func() {
			Add(&wg, 1)
			Done(&wg)
		})
		Recv(done)
	})
}

func TestWaitGroupReusePanics(t *testing.T) {
	seen := map[string]bool{}
	for seed := int64(1); seed <= 30 && len(seen) < 2; seed++ {
		evs := victim(t, "TestVictimWaitGroupReuse", wire.Config{Strategy: "random", Seed: seed, Schedules: 50})
		for _, b := range bugs(evs) {
			for _, m := range []string{msgMisuse, msgReused} {
				if strings.Contains(b.Message, m) {
					seen[m] = true
				}
			}
		}
	}
	if !seen[msgMisuse] || !seen[msgReused] {
		t.Errorf("panics seen: %v", seen)
	}
}

// The goroutines wg.Go starts are reported where wg.Go was called.
func TestVictimWaitGroupGoLeak(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var wg sync.WaitGroup
		c := Chan(make(chan int))
		WaitGroupGo(&wg, func() { Send(c, 1) })
	})
}

func TestWaitGroupGoLeak(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimWaitGroupGoLeak", wire.Config{Strategy: "dfs"}), "leak")
	if !strings.Contains(b.Message, "waitgroup_test.go") {
		t.Errorf("message %q", b.Message)
	}
}

// The model's WaitGroup orders the workers' writes before the reads after
// Wait: under -race, no race may be reported.
func TestWaitGroupHappensBefore(t *testing.T) {
	check(t, "random", 50, func(t *testing.T) {
		var wg sync.WaitGroup
		res := make([]int, 2)
		for i := 0; i < 2; i++ {
			i := i
			Add(&wg, 1)
			Go(func() { res[i] = i + 1; Done(&wg) })
		}
		Wait(&wg)
		if res[0]+res[1] != 3 {
			t.Errorf("res = %v", res)
		}
	})
}

// A pass-through Done of a WaitGroup whose Add went to a finished
// execution's model must not panic (see addLeftover).
func TestDoneLeftover(t *testing.T) {
	var wg sync.WaitGroup
	check(t, "random", 1, func(t *testing.T) { Add(&wg, 1) })
	Done(&wg) // no execution is active: the real counter is zero
	Add(&wg, 1)
	Done(&wg)
	Wait(&wg)
}
