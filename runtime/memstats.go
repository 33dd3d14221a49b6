package runtime

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// What a program measures of its allocations (runtime.ReadMemStats around
// a call, testing.AllocsPerRun) inside an execution must be its own: the
// runtime allocates as it schedules (its record of the schedule, the race
// detector's shadow of new variables, the state of new sync objects), and
// a test that checks "0 allocations" in one call would fail for gosct's.
// So once the program reads the allocation counters in an execution (the
// rewritten runtime.ReadMemStats, testing.AllocsPerRun), the runtime
// counts what it allocates itself from then on, exactly: the counters
// before and after each stretch of its own work (a hold of the
// execution's lock, the detailed mode's stack walks), read with
// runtime.ReadMemStats (which stops the world: tens of microseconds, paid
// only by executions that measure). The program's reads see the
// counters less what the runtime allocated: Mallocs, TotalAlloc, and the
// heap's live objects and bytes, HeapObjects, HeapAlloc (as if the
// runtime's objects had been freed).

// ownAllocs counts the runtime's allocations of one execution.
type ownAllocs struct {
	on atomic.Bool
	mu sync.Mutex
	// depth counts the stretches of own work under way (the lock's
	// holder, a goroutine walking its stack before taking the lock):
	// the counters are read when the first begins and the last ends.
	depth          int
	mallocs, bytes uint64 // at the start of the stretch
	ownMallocs     uint64 // the runtime's, since measuring began
	ownBytes       uint64
	// ms is where the counters are read, made when counting starts:
	// a MemStats is 5 KB, more than the rest of a small execution's
	// allocations.
	ms *runtime.MemStats
}

// begin starts a stretch of the runtime's own work.
//
//go:norace
func (a *ownAllocs) begin() {
	if a == nil || !a.on.Load() {
		return
	}
	a.mu.Lock()
	if a.depth == 0 {
		runtime.ReadMemStats(a.ms)
		a.mallocs, a.bytes = a.ms.Mallocs, a.ms.TotalAlloc
	}
	a.depth++
	a.mu.Unlock()
}

// end ends a stretch begun by begin.
//
//go:norace
func (a *ownAllocs) end() {
	if a == nil || !a.on.Load() {
		return
	}
	a.mu.Lock()
	if a.depth > 0 {
		a.depth--
		if a.depth == 0 {
			runtime.ReadMemStats(a.ms)
			a.ownMallocs += a.ms.Mallocs - a.mallocs
			a.ownBytes += a.ms.TotalAlloc - a.bytes
		}
	}
	a.mu.Unlock()
}

// read is runtime.ReadMemStats less the runtime's own allocations; the
// first read turns the counting on.
//
//go:norace
func (a *ownAllocs) read(m *runtime.MemStats) {
	a.mu.Lock()
	if a.ms == nil {
		// Before the program's counters are read: its first read
		// counts this allocation, not the difference between two.
		a.ms = new(runtime.MemStats)
	}
	a.on.Store(true)
	runtime.ReadMemStats(m)
	m.Mallocs -= min(a.ownMallocs, m.Mallocs)
	m.TotalAlloc -= min(a.ownBytes, m.TotalAlloc)
	m.HeapObjects -= min(a.ownMallocs, m.HeapObjects)
	m.HeapAlloc -= min(a.ownBytes, m.HeapAlloc)
	a.mu.Unlock()
}

// ReadMemStats is runtime.ReadMemStats(m): inside an execution, without
// what the runtime itself allocated since the program first read them.
//
//go:norace
func ReadMemStats(m *runtime.MemStats) {
	e, me := enter()
	if e == nil || me == nil {
		runtime.ReadMemStats(m)
		return
	}
	e.own.read(m)
}

// AllocsPerRun is testing.AllocsPerRun(runs, f), its allocations counted
// by ReadMemStats.
//
//go:norace
func AllocsPerRun(runs int, f func()) (avg float64) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// Warm up the function, as testing does.
	f()
	var ms runtime.MemStats
	ReadMemStats(&ms)
	mallocs := 0 - ms.Mallocs
	for i := 0; i < runs; i++ {
		f()
	}
	ReadMemStats(&ms)
	mallocs += ms.Mallocs
	return float64(mallocs / uint64(runs))
}
