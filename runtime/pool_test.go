package runtime

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// TestWorkersReusedAcrossExecutionsOnly: the goroutines of an execution run
// in workers that earlier executions' goroutines ran in (pool.go), never in
// one that a goroutine of the same execution ran in, even once it ended.
func TestWorkersReusedAcrossExecutionsOnly(t *testing.T) {
	seen := map[int64]bool{}
	goroutines := 0
	check(t, "random", 50, func(t *testing.T) {
		var ids [2]int64
		for i := 0; i < 2; i++ {
			done := Chan(make(chan int64))
			// The first has ended when the second starts.
			Go(func() { Send(done, goid()) })
			ids[i] = Recv(done)
		}
		if ids[0] == ids[1] {
			t.Errorf("two goroutines of one execution ran in goroutine %d", ids[0])
		}
		for _, id := range ids {
			seen[id] = true
		}
		goroutines += 2
	})
	if len(seen) >= goroutines {
		t.Errorf("%d goroutines ran in %d Go goroutines: none reused", goroutines, len(seen))
	}
}

// TestWorkerLockedToItsThreadEnds: a goroutine that locked its thread
// (LockOSThread) and returned is not reused: Go would end its thread.
func TestWorkerLockedToItsThreadEnds(t *testing.T) {
	type ran struct {
		run int
		id  int64
	}
	lockedAt := map[int64]int{} // goroutine: the run it locked its thread in
	var others []ran
	runs := 0
	check(t, "random", 30, func(t *testing.T) {
		runs++
		done := Chan(make(chan int64))
		Go(func() {
			LockOSThread()
			Send(done, goid())
		})
		lockedAt[Recv(done)] = runs
		other := Chan(make(chan int64))
		Go(func() { Send(other, goid()) })
		others = append(others, ran{runs, Recv(other)})
	})
	ids := map[int64]bool{}
	for id := range lockedAt {
		ids[id] = true
	}
	for _, o := range others {
		if k, ok := lockedAt[o.id]; ok && o.run >= k {
			t.Errorf("goroutine %d locked its thread in run %d, then ran another goroutine in run %d", o.id, k, o.run)
		}
		ids[o.id] = true
	}
	if len(lockedAt) != 30 || len(ids) >= 60 {
		t.Errorf("%d goroutines locked their threads in 30 runs; 60 goroutines ran in %d Go goroutines (none reused)", len(lockedAt), len(ids))
	}
}

// TestNumGoroutineLeavesTheRuntimeOut: what NumGoroutine counts at the
// start of the test leaves out the workers and the shared subtest
// (sharing.go) that the runtime keeps between executions. In a process of
// its own: other tests' goroutines would come and go.
func TestNumGoroutineLeavesTheRuntimeOut(t *testing.T) {
	test := testEvent(t, victim(t, "TestVictimNumGoroutine", wire.Config{Strategy: "random", Seed: 1, Schedules: 200}))
	if test.Schedules != 200 {
		t.Errorf("%d schedules, want 200", test.Schedules)
	}
}

// TestVictimNumGoroutine fails a schedule whose count at the start is more
// than what ran before the exploration, the test goroutine and one
// goroutine the runtime starts for a moment (the watchdog's calibration).
// Counting the workers, it would be four more: the test goroutine's and
// the two goroutines' of the schedule before, and the shared subtest's
// two less the test goroutine's subtest.
func TestVictimNumGoroutine(t *testing.T) {
	victimOnly(t)
	before := runtime.NumGoroutine()
	Test(t, func(t *testing.T) {
		if n := NumGoroutine(); n > before+2 {
			T(t).Errorf("NumGoroutine at the start of the test: %d, %d before the exploration", n, before)
		}
		done := Chan(make(chan bool))
		Go(func() { Send(done, true) })
		Go(func() {})
		Recv(done)
	})
}

// TestGoRecordsTheGoStatement: the position Go records for a goroutine
// (read from frame pointers where it can) is its go statement's.
func TestGoRecordsTheGoStatement(t *testing.T) {
	var pc uintptr
	_, _, line, _ := runtime.Caller(0)
	check(t, "random", 3, func(t *testing.T) {
		done := Chan(make(chan uintptr))
		Go(func() { _, me := enter(); Send(done, me.created) }) // line+3
		pc = Recv(done)
	})
	fr, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	if fr.Line != line+3 || !strings.Contains(fr.Function, "TestGoRecordsTheGoStatement") {
		t.Errorf("go statement at %s:%d (%s), want line %d", fr.File, fr.Line, fr.Function, line+3)
	}
}
