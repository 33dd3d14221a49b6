//go:build !race

package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// Without -race, the runtime's lock and atomics are the plain ones and
// the edges for Go's race detector cost nothing (tsan_on.go).

//go:norace
func raceDisable() {}

//go:norace
func raceEnable() {}

const raceEnabled = false

const raceSlowdown = 1

// rtMutex is the execution's lock. It counts the goroutines waiting for
// it, so that the watchdog can tell a token holder blocked on this lock
// (in the runtime) from one blocked in uncontrolled code (watchdog.go).
type rtMutex struct {
	m       sync.Mutex
	waiting atomic.Int32
	// own, the execution's lock's, counts what the runtime allocates
	// while it holds the lock as its own (memstats.go).
	own *ownAllocs
}

//go:norace
func (m *rtMutex) Lock() {
	if !m.m.TryLock() {
		m.waiting.Add(1)
		m.m.Lock()
		m.waiting.Add(-1)
	}
	m.own.begin()
}

//go:norace
func (m *rtMutex) Unlock() {
	m.own.end()
	m.m.Unlock()
}

//go:norace
func (m *rtMutex) TryLock() bool {
	ok := m.m.TryLock()
	if ok {
		m.own.begin()
	}
	return ok
}

// contended reports a goroutine waiting for the lock.
//
//go:norace
func (m *rtMutex) contended() bool { return m.waiting.Load() != 0 }

type (
	goroutinePtr = atomic.Pointer[goroutine]
	executionPtr = atomic.Pointer[execution]
	rtCounter    = atomic.Int64
)

//go:norace
func tsanPark(me *goroutine) {}

//go:norace
func tsanResume(me *goroutine) {}

//go:norace
func tsanFlow(from, to *goroutine) {}

//go:norace
func tsanAbsorb(g *goroutine) {}

//go:norace
func tsanRelay(g *goroutine) {}

//go:norace
func tsanStartAfter(g *goroutine, p unsafe.Pointer) {}

//go:norace
func serviceSync() {}

//go:norace
func goNeutral(f func()) { go f() }

// ownGoroutines counts the goroutines of the runtime that come and go
// with executions, which the program's goroutine count leaves out
// (freshInputs): the workers.
//
//go:norace
func ownGoroutines() int { return workers() }

//go:norace
func (e *execution) strategyNext() int {
	defer strategyPanicked()
	return e.strat.Next(&e.pt)
}

//go:norace
func (e *execution) strategyFollowing() bool { return following(e.strat) }

//go:norace
func (e *execution) strategyEnd(eu strategies.EventUser, end strategies.End) {
	defer strategyPanicked()
	eu.EndExecution(end)
}
