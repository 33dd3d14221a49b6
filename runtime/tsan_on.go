//go:build race

package runtime

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// Under -race (docs/races.md, "Go's race detector"), the runtime must be
// invisible to ThreadSanitizer: its own synchronization (its lock, the
// atomics that say who holds the token, the token's channels) would
// otherwise order everything one user goroutine did before everything the
// next one does, and hide the program's races. RaceDisable makes the race
// detector ignore the synchronization of the calling goroutine (atomics
// included) until RaceEnable; the runtime's memory accesses are hidden by
// //go:norace on every function of the package (norace_test.go)
// and by keeping Go's own instrumented operations (map access, copy) off
// the state goroutines share (rmap_tsan.go, slices.go).

//go:norace
func raceDisable() { runtime.RaceDisable() }

//go:norace
func raceEnable() { runtime.RaceEnable() }

// raceEnabled reports whether the binary was built with -race.
const raceEnabled = true

// rtMutex is the execution's lock, invisible to the race detector. It
// counts its waiters as race_off.go's does.
type rtMutex struct {
	m       sync.Mutex
	waiting atomic.Int32
	// own, the execution's lock's, counts what the runtime allocates
	// while it holds the lock as its own (memstats.go).
	own *ownAllocs
}

//go:norace
func (m *rtMutex) Lock() {
	runtime.RaceDisable()
	if !m.m.TryLock() {
		m.waiting.Add(1)
		m.m.Lock()
		m.waiting.Add(-1)
	}
	m.own.begin()
	runtime.RaceEnable()
}

//go:norace
func (m *rtMutex) contended() bool {
	runtime.RaceDisable()
	c := m.waiting.Load() != 0
	runtime.RaceEnable()
	return c
}

//go:norace
func (m *rtMutex) Unlock() {
	runtime.RaceDisable()
	m.own.end()
	m.m.Unlock()
	runtime.RaceEnable()
}

//go:norace
func (m *rtMutex) TryLock() bool {
	runtime.RaceDisable()
	ok := m.m.TryLock()
	if ok {
		m.own.begin()
	}
	runtime.RaceEnable()
	return ok
}

// goroutinePtr, executionPtr and rtCounter are the runtime's atomics,
// invisible to the race detector.
type goroutinePtr struct{ p atomic.Pointer[goroutine] }

//go:norace
func (a *goroutinePtr) Load() *goroutine {
	runtime.RaceDisable()
	g := a.p.Load()
	runtime.RaceEnable()
	return g
}

//go:norace
func (a *goroutinePtr) Store(g *goroutine) {
	runtime.RaceDisable()
	a.p.Store(g)
	runtime.RaceEnable()
}

type executionPtr struct{ p atomic.Pointer[execution] }

//go:norace
func (a *executionPtr) Load() *execution {
	runtime.RaceDisable()
	e := a.p.Load()
	runtime.RaceEnable()
	return e
}

//go:norace
func (a *executionPtr) Store(e *execution) {
	runtime.RaceDisable()
	a.p.Store(e)
	runtime.RaceEnable()
}

//go:norace
func (a *executionPtr) CompareAndSwap(old, new *execution) bool {
	runtime.RaceDisable()
	ok := a.p.CompareAndSwap(old, new)
	runtime.RaceEnable()
	return ok
}

type rtCounter struct{ n atomic.Int64 }

//go:norace
func (a *rtCounter) Load() int64 {
	runtime.RaceDisable()
	n := a.n.Load()
	runtime.RaceEnable()
	return n
}

//go:norace
func (a *rtCounter) Store(n int64) {
	runtime.RaceDisable()
	a.n.Store(n)
	runtime.RaceEnable()
}

//go:norace
func (a *rtCounter) Add(d int64) int64 {
	runtime.RaceDisable()
	n := a.n.Add(d)
	runtime.RaceEnable()
	return n
}

// Happens-before edges the runtime gives user goroutines explicitly,
// because it performs the synchronization itself (a value handed to a
// blocked receiver, a close waking receivers) rather than through a real
// channel operation of the goroutines concerned. Go's race detector can
// only move the clock of the calling goroutine, so each controlled
// goroutine has two sync addresses: snap, where it releases its clock
// before it parks (so a goroutine completing its operation can acquire
// what it did), and inbox, which other goroutines release into on its
// behalf and which it acquires whenever it resumes.

// tsanPark is called by me just before it parks.
//
//go:norace
func tsanPark(me *goroutine) { runtime.RaceRelease(unsafe.Pointer(&me.tsanSnap)) }

// tsanResume is called by me when it resumes.
//
//go:norace
func tsanResume(me *goroutine) {
	runtime.RaceAcquire(unsafe.Pointer(&me.tsanInbox))
	if p := me.tsanStart; p != nil {
		me.tsanStart = nil
		runtime.RaceAcquire(p)
	}
}

// tsanFlow orders everything from did so far before whatever to does
// next. Either may be the calling goroutine or a parked one; when neither
// is, the caller relays the edge (and is ordered after from too: a
// harmless over-approximation, it can only hide a race).
//
//go:norace
func tsanFlow(from, to *goroutine) {
	if from == nil || to == nil || from == to {
		return
	}
	id := goid()
	if from.goid != id {
		runtime.RaceAcquire(unsafe.Pointer(&from.tsanSnap))
	}
	if to.goid != id {
		runtime.RaceReleaseMerge(unsafe.Pointer(&to.tsanInbox))
	}
}

// tsanAbsorb orders the caller after everything parked g did: the caller
// is about to perform g's operation for it (move its value into a buffer).
//
//go:norace
func tsanAbsorb(g *goroutine) {
	if g != nil && g.goid != goid() {
		runtime.RaceAcquire(unsafe.Pointer(&g.tsanSnap))
	}
}

// tsanStartAfter makes g, not started yet, begin after the releases on p
// (an AfterFunc's f after the AfterFunc call).
//
//go:norace
func tsanStartAfter(g *goroutine, p unsafe.Pointer) { g.tsanStart = p }

// The service goroutine. Whatever the runtime does on its own behalf with
// instrumented code it does not own (the strategy's Next, which keeps
// state across calls) or that would inherit the clock of whichever user
// goroutine happens to run it (a goroutine the runtime starts for an
// AfterFunc, which a go statement would order after its starter) runs
// there instead: one goroutine, reached with the synchronization ignored,
// so its clock holds no user goroutine's. The test goroutine synchronizes
// with it for real at the start and the end of an execution (serviceSync),
// which orders the strategy's use between executions (explore.go) and
// within them.

type serviceReq struct {
	f    func()
	sync bool
	done chan struct{}
}

var (
	serviceOnce sync.Once
	serviceCh   chan serviceReq
	// serviceIn and serviceOut carry the edges of serviceSync.
	serviceIn, serviceOut uint8
)

//go:norace
func startService() {
	serviceCh = make(chan serviceReq)
	serviceStarted.Store(true)
	go serviceLoop()
}

// serviceStarted: the service's goroutine runs (from the first request on).
var serviceStarted atomic.Bool

// ownGoroutines counts the goroutines of the runtime that come and go
// with executions, which the program's goroutine count leaves out
// (freshInputs): the workers, and the service's goroutine, started at the
// first execution's end.
//
//go:norace
func ownGoroutines() int {
	n := workers()
	if serviceStarted.Load() {
		n++
	}
	return n
}

// serviceLoop ignores the synchronization of its requests and replies,
// except for the explicit edges of serviceSync: otherwise a reply to one
// user goroutine would order the service after it (Go's channels move
// clocks both ways), and the next reply would carry that to another. The
// request itself runs with synchronization seen: the code it runs may
// hand objects to user goroutines through a sync.Pool (fmt's printers),
// and a Put the detector ignores leaves the next Get's writes unordered
// after the service's (a false race in fmt, seen on a replay's
// divergence message).
//
//go:norace
func serviceLoop() {
	runtime.RaceDisable()
	for r := range serviceCh {
		runtime.RaceEnable()
		if r.sync {
			runtime.RaceAcquire(unsafe.Pointer(&serviceIn))
		}
		r.f()
		if r.sync {
			runtime.RaceRelease(unsafe.Pointer(&serviceOut))
		}
		runtime.RaceDisable()
		r.done <- struct{}{}
	}
}

//go:norace
func onService(f func(), sync bool) {
	runtime.RaceDisable() // the Once's own edge would order every caller after the first
	serviceOnce.Do(startService)
	runtime.RaceEnable()
	r := serviceReq{f, sync, make(chan struct{})}
	if sync {
		runtime.RaceReleaseMerge(unsafe.Pointer(&serviceIn))
	}
	runtime.RaceDisable()
	serviceCh <- r
	<-r.done
	runtime.RaceEnable()
	if sync {
		runtime.RaceAcquire(unsafe.Pointer(&serviceOut))
	}
}

// serviceSync orders the service goroutine's work and the caller's both
// ways.
//
//go:norace
func serviceSync() { onService(func() {}, true) }

// strategyNext asks the strategy for the next decision.
//
//go:norace
func (e *execution) strategyNext() int {
	var i int
	onService(func() {
		defer strategyPanicked()
		i = e.strat.Next(&e.pt)
	}, false)
	return i
}

// strategyFollowing is following(e.strat), asked where the strategy's
// decisions are made: a replayer notes its divergence on the service
// goroutine, and read from the holder that note is a race the detector
// sees (the service's edges are hidden from it: serviceLoop).
//
//go:norace
func (e *execution) strategyFollowing() bool {
	if _, ok := e.strat.(strategies.Follower); !ok {
		return false // no replayer: no round trip to the service at each fair step
	}
	var ok bool
	onService(func() { ok = following(e.strat) }, false)
	return ok
}

// strategyEnd tells an EventUser that the execution ended.
//
//go:norace
func (e *execution) strategyEnd(eu strategies.EventUser, end strategies.End) {
	onService(func() {
		defer strategyPanicked()
		eu.EndExecution(end)
	}, false)
}

// goNeutral starts f in a goroutine that is ordered after none of the
// user goroutines.
//
//go:norace
func goNeutral(f func()) {
	onService(func() { go f() }, false)
}

// tsanRelay orders everything the caller did so far (including what it
// just acquired from a real channel operation it performed for g) before
// whatever parked g does next.
//
//go:norace
func tsanRelay(g *goroutine) {
	if g != nil && g.goid != goid() {
		runtime.RaceReleaseMerge(unsafe.Pointer(&g.tsanInbox))
	}
}

// raceSlowdown scales the watchdog's patience: code runs several times
// slower under -race, and the race detector's first report (symbolizing
// stacks) takes longer than the watchdog's usual 100 ms.
const raceSlowdown = 10
