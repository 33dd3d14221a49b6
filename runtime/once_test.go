package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
)

func TestOncePassThrough(t *testing.T) {
	var o sync.Once
	n := 0
	Do(&o, func() { n++ })
	Do(&o, func() { n++ })
	o.Do(func() { n++ })
	if n != 1 {
		t.Fatalf("f ran %d times", n)
	}
	f := OnceValue(func() int { n++; return n })
	if f() != 2 || f() != 2 {
		t.Fatal("OnceValue")
	}
}

// A Do that finds f running waits for it to return, and sees its effects.
func TestOutcomesOnceConcurrent(t *testing.T) {
	wantOutcomes(t, outcomes(t, func(t *testing.T) string {
		var o sync.Once
		runs, v := 0, 0
		f := func() {
			runs++
			Gosched()
			Store(&v, 42)
		}
		done := Chan(make(chan int))
		Go(func() { Do(&o, f); Send(done, Load(&v)) })
		Do(&o, f)
		mine := Load(&v)
		return itoa(runs) + " " + itoa(mine) + " " + itoa(Recv(done))
	}), "1 42 42")
}

// If f panics, Do is done all the same.
func TestOncePanic(t *testing.T) {
	check(t, "dfs", 10, func(t *testing.T) {
		var o sync.Once
		func() {
			defer func() {
				if recover() != "boom" {
					t.Error("the panic of f was lost")
				}
			}()
			Do(&o, func() { panic("boom") })
		}()
		Do(&o, func() { t.Error("f called again after a panic") })
	})
}

var (
	pkgOnce sync.Once
	pkgRuns int
)

// A package-level Once first used by the test runs its function once per
// process, as under go test -count=N: in the first execution only; one
// done before the executions stays done.
func TestOncePerProcess(t *testing.T) {
	pkgRuns = 0
	x := check(t, "random", 5, func(t *testing.T) {
		Do(&pkgOnce, func() { pkgRuns++ })
		Do(&pkgOnce, func() { pkgRuns++ })
	})
	if pkgRuns != 1 || x.schedules != 5 {
		t.Errorf("f ran %d times in %d executions", pkgRuns, x.schedules)
	}
	var before sync.Once
	before.Do(func() {})
	check(t, "random", 2, func(t *testing.T) {
		Do(&before, func() { t.Error("a Once done before the execution ran f") })
	})
}

var (
	carriedOnce sync.Once
	carriedX    int
)

// TestVictimOnceCarried: a package-level Once whose function takes a
// decision, then a bug that needs G1 to run before the test goroutine's
// read: dfs finds it after the first schedule, which ran the function.
func TestVictimOnceCarried(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		Do(&carriedOnce, func() { Gosched() })
		x := 0
		done := Chan(make(chan bool))
		Go(func() { Store(&x, 1); Send(done, true) })
		if Load(&x) == 1 {
			t.Error("saw the write")
		}
		Recv(done)
	})
}

// The trace of a schedule that found a Once done by an earlier schedule
// names it, and replays in a fresh process, which runs the function
// first, outside the schedule.
func TestOnceCarriedReplays(t *testing.T) {
	skipRace(t) // the victim's bug is a race on x
	b := wantBug(t, victim(t, "TestVictimOnceCarried", wire.Config{Strategy: "dfs"}), "failure")
	if b.Schedule < 2 || !b.Replayed {
		t.Fatalf("bug at schedule %d, replayed %v", b.Schedule, b.Replayed)
	}
	tr, err := replay.Read(b.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Inputs == nil || len(tr.Inputs.Onces) != 1 || !strings.HasPrefix(tr.Inputs.Onces[0], "once_test.go:") {
		t.Fatalf("the trace does not name the carried Once: %+v", tr.Inputs)
	}
	r := wantBug(t, victim(t, "TestVictimOnceCarried", wire.Config{Mode: "replay", Trace: b.Trace, Schedules: 1}), "failure")
	if !r.Replayed {
		t.Errorf("the trace did not replay in a fresh process: %+v", r)
	}
}

func TestOnceFuncs(t *testing.T) {
	check(t, "dfs", 100, func(t *testing.T) {
		n := 0
		f := OnceFunc(func() { n++ })
		v := OnceValue(func() int { n++; return 7 })
		vs := OnceValues(func() (int, string) { n++; return 8, "x" })
		for i := 0; i < 2; i++ {
			f()
			if v() != 7 {
				t.Error("OnceValue")
			}
			if a, b := vs(); a != 8 || b != "x" {
				t.Error("OnceValues")
			}
		}
		if n != 3 {
			t.Errorf("functions ran %d times", n)
		}
		p := OnceFunc(func() { n++; panic("again") })
		for i := 0; i < 2; i++ {
			func() {
				defer func() {
					if r := recover(); r != "again" {
						t.Errorf("call %d: recovered %v", i, r)
					}
				}()
				p()
			}()
		}
		if n != 4 {
			t.Errorf("the panicking function ran %d times", n-3)
		}
	})
}

// Do called from f of the same Once waits for itself.
func TestVictimOnceRecursive(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var o sync.Once
		Do(&o, func() { Do(&o, func() {}) })
	})
}

func TestOnceRecursiveDeadlock(t *testing.T) {
	b := wantBug(t, victim(t, "TestVictimOnceRecursive", wire.Config{Strategy: "dfs"}), "deadlock")
	if !strings.Contains(b.Message, "once (sync.Once running f in G0)") {
		t.Errorf("message %q", b.Message)
	}
}
