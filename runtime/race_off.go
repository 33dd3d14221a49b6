//go:build !race

package runtime

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Without -race, the runtime's lock and atomics are the plain ones and
// the edges for Go's race detector cost nothing (race_on.go).

func raceDisable() {}
func raceEnable()  {}

const raceEnabled = false

type (
	rtMutex      = sync.Mutex
	goroutinePtr = atomic.Pointer[goroutine]
	executionPtr = atomic.Pointer[execution]
	rtCounter    = atomic.Int64
)

func tsanPark(me *goroutine)                        {}
func tsanResume(me *goroutine)                      {}
func tsanFlow(from, to *goroutine)                  {}
func tsanAbsorb(g *goroutine)                       {}
func tsanRelay(g *goroutine)                        {}
func tsanStartAfter(g *goroutine, p unsafe.Pointer) {}
func serviceSync()                                  {}
func goNeutral(f func())                            { go f() }

func (e *execution) strategyNext() int { return e.strat.Next(&e.pt) }
