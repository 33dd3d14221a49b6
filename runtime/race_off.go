//go:build !race

package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Without -race, the runtime's lock and atomics are the plain ones and
// the edges for Go's race detector cost nothing (race_on.go).

//go:norace
func raceDisable() {}

//go:norace
func raceEnable() {}

const raceEnabled = false

const raceSlowdown = 1

type (
	rtMutex      = sync.Mutex
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

//go:norace
func (e *execution) strategyNext() int { return e.strat.Next(&e.pt) }
