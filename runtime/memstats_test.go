package runtime

import (
	goruntime "runtime"
	"sync"
	"testing"
)

// singleRun measures f's allocations as ttlcache's allocsPerSingleRun
// does: one call, between two reads of the counters.
func singleRun(read func(*goruntime.MemStats), f func()) int {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	var ms goruntime.MemStats
	read(&ms)
	n := ms.Mallocs
	f()
	read(&ms)
	return int(ms.Mallocs - n)
}

var memSink []*int

// TestReadMemStatsSeesTheProgramsAllocations checks that a program that
// measures one call's allocations inside an execution sees its own: none
// for a call that makes new sync objects and shared variables (the
// runtime allocates its state for them), one for a call that allocates
// one object as well. The same with plain runtime.ReadMemStats counts the
// runtime's too.
func TestReadMemStatsSeesTheProgramsAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("-race instruments the hooks with allocations of its own")
	}
	var got, gotAlloc, gotPlain []int
	var per float64
	mus := make([]sync.RWMutex, 64)
	vars := make([]int, 64)
	check(t, "random", 3, func(t *testing.T) {
		step := func(alloc bool) func() {
			return func() {
				for i := range mus {
					RWLock(&mus[i])
					Store(&vars[i], Load(&vars[i])+1)
					RWUnlock(&mus[i])
				}
				if alloc {
					memSink = append(memSink[:0], new(int))
				}
			}
		}
		memSink = make([]*int, 0, 1)
		got = append(got, singleRun(ReadMemStats, step(false)))
		gotAlloc = append(gotAlloc, singleRun(ReadMemStats, step(true)))
		per = AllocsPerRun(5, step(false))
		gotPlain = append(gotPlain, singleRun(goruntime.ReadMemStats, func() {
			for i := range mus {
				RLock(&mus[i])
				RUnlock(&mus[i])
			}
			x := new(int)
			Store(x, 1)
		}))
	})
	for i := range got {
		if got[i] != 0 || gotAlloc[i] != 1 {
			t.Errorf("execution %d: one call measured %d allocations, want 0; with one of the program's, %d, want 1", i+1, got[i], gotAlloc[i])
		}
	}
	if per != 0 {
		t.Errorf("AllocsPerRun = %v, want 0", per)
	}
	t.Logf("plain runtime.ReadMemStats saw %v (the runtime's own included)", gotPlain)
}
