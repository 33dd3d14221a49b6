package runtime

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Knowing, not guessing, what a goroutine in uncontrolled code is doing.
//
// Go's scheduler keeps each goroutine's state in its g structure: the
// status word (runtime2.go: _Grunning, _Gwaiting, _Gsyscall, _Gdead, ...)
// and, for a waiting goroutine, a one-byte wait reason (waitReasonChanReceive,
// waitReasonIOWait, ...). goid.go already reads g.goid at an offset found at
// start-up; this file finds the offsets of atomicstatus and waitreason the
// same way, against goroutines put in known states whose states the
// runtime's own traceback confirms ("goroutine 18 [chan receive]:"), so
// that the watchdog can tell a token holder blocked in a library's channel
// or in netpoll (detach it at once) from one computing between hooks
// (leave it alone). Nothing is assumed that calibration did not see: the
// status values are checked to be this Go's (_Gwaiting = 4, _Grunning = 2,
// unchanged since Go 1.0), the wait reasons are learnt by name from the
// traceback, and if anything does not match (a later Go with another
// layout) gstatusOK stays false and the runtime falls back to timeouts.

// Go's status values (runtime2.go); calibration checks the two it can
// observe, and the others have kept their values since Go 1.0.
const (
	gsRunnable = 1
	gsRunning  = 2
	gsSyscall  = 3
	gsWaiting  = 4
	gsDead     = 6
	gsScanBit  = 0x1000
)

var (
	gstatusOnce   sync.Once
	gstatusOK     bool
	statusOffset  int
	reasonOffset  int
	reasonMu      sync.Mutex
	reasonNames   [256]string // learnt from tracebacks
	reasonBlocked [256]uint8  // classifyReason's classes; 0 unknown
)

// gRun is what a goroutine is doing, as far as the scheduler says.
type gRun uint8

const (
	runUnknown   gRun = iota // calibration failed, or a state we do not interpret
	runRunning               // running or runnable: computing
	runSyscall               // in a system call
	runBlocked               // waiting until something happens (a channel, a lock, I/O, a sleep)
	runTransient             // waiting for the garbage collector, preempted: will go on by itself
	runGone                  // exited
)

// calibrateGstatus runs once, when the first exploration starts (not at
// init: a test binary run without gosct pays nothing).
//
//go:norace
func calibrateGstatus() { gstatusOnce.Do(doCalibrateGstatus) }

//go:norace
func doCalibrateGstatus() {
	if goidOffset < 0 || !haveGetg {
		return
	}
	type probe struct {
		g    unsafe.Pointer
		id   int64
		want string
	}
	var (
		ps      [5]probe
		wg      sync.WaitGroup
		recv    = make(chan struct{})
		sel1    = make(chan struct{})
		sel2    = make(chan struct{})
		send    = make(chan struct{})
		mu      sync.Mutex
		exited  sync.WaitGroup
		release = func() {}
	)
	mu.Lock()
	start := func(i int, want string, block func()) {
		wg.Add(1)
		exited.Add(1)
		go func() {
			defer exited.Done()
			ps[i] = probe{getg(), slowGoid(), want}
			wg.Done()
			block()
		}()
	}
	start(0, "chan receive", func() { <-recv })
	start(1, "chan receive", func() { <-recv })
	start(2, "select", func() {
		select {
		case <-sel1:
		case <-sel2:
		}
	})
	start(3, "sync.Mutex.Lock", func() { mu.Lock(); mu.Unlock() })
	start(4, "chan send", func() { send <- struct{}{} })
	release = func() { close(recv); close(sel1); mu.Unlock(); <-send }
	defer func() { release(); exited.Wait() }()
	wg.Wait()
	// Wait until the traceback shows every probe parked as intended.
	ok := false
	for try := 0; try < 200 && !ok; try++ {
		states := tracebackStates()
		ok = true
		for _, p := range ps {
			if states[p.id] != p.want {
				ok = false
			}
		}
		if !ok {
			time.Sleep(100 * time.Microsecond)
		}
	}
	if !ok {
		return
	}
	self := getg()
	// The status word: _Gwaiting in every probe, _Grunning in self. The
	// layout of runtime2.go (atomicstatus, stackLock, goid) is tried first.
	statusAt := func(off int) bool {
		if off < 0 {
			return false
		}
		for _, p := range ps {
			if u32(p.g, off)&^gsScanBit != gsWaiting {
				return false
			}
		}
		return u32(self, off) == gsRunning
	}
	sOff := pick(goidOffset-8, 4, goidOffset+64, statusAt)
	// The wait reason: one byte, not zero, equal in the probes that wait
	// alike (the two channel receivers) and different in the others.
	// The channel send is there for a token holder's own waits (its park,
	// the runtime's lock, -race's service): known from the start, no
	// pause of the collector can be mistaken for them (learnReason).
	reasonAt := func(off int) bool {
		for _, p := range ps {
			for _, q := range ps {
				a, b := u8(p.g, off), u8(q.g, off)
				if a == 0 || (a == b) != (p.want == q.want) {
					return false
				}
			}
		}
		return true
	}
	rOff := pick(goidOffset+24, 1, goidOffset+64, reasonAt)
	if sOff < 0 || rOff < 0 {
		return
	}
	reasonMu.Lock()
	for _, p := range ps {
		r := u8(p.g, rOff)
		reasonNames[r] = p.want
		reasonBlocked[r] = classifyReason(p.want)
	}
	reasonMu.Unlock()
	statusOffset, reasonOffset = sOff, rOff
	gstatusOK = true
}

//go:norace
//go:nocheckptr
func u32(g unsafe.Pointer, off int) uint32 { return *(*uint32)(unsafe.Add(g, off)) }

//go:norace
//go:nocheckptr
func u8(g unsafe.Pointer, off int) uint8 { return *(*uint8)(unsafe.Add(g, off)) }

// pick returns preferred if ok accepts it, else the only offset in
// [0, limit) (multiples of align) that ok accepts, else -1.
//
//go:norace
func pick(preferred, align, limit int, ok func(int) bool) int {
	if preferred >= 0 && ok(preferred) {
		return preferred
	}
	found := -1
	for off := 0; off < limit; off += align {
		if ok(off) {
			if found >= 0 {
				return -1 // ambiguous: do not guess
			}
			found = off
		}
	}
	return found
}

// classifyReason says whether a wait reason (as the traceback names it)
// is a goroutine waiting for an event (1) or a pause of Go's own
// machinery it comes out of by itself (2).
//
// A bare "semacquire" is the second. Since Go 1.24 the sync package's
// waits have reasons of their own ("sync.Mutex.Lock"); "semacquire" is
// the collector's or the world stop's semaphore, which any allocation may
// wait on while a collection starts (on a loaded machine, for
// milliseconds), or internal/poll's lock of a file another goroutine does
// I/O on, which ends when that I/O does. Taken for a wait on the program,
// it had the watchdog detach a token holder that was only allocating.
//
//go:norace
func classifyReason(name string) uint8 {
	switch {
	case name == "sleep", name == "IO wait",
		// Go's goroutines for finalizers and cleanups, parked until a
		// collection queues more (named only when tracebacks show
		// them, GOTRACEBACK=system; see hiddenWait).
		name == "finalizer wait", name == "cleanup wait",
		strings.HasPrefix(name, "chan "), strings.HasPrefix(name, "select"),
		strings.HasPrefix(name, "sync."), strings.HasPrefix(name, "synctest."):
		return 1
	}
	return 2
}

// tracebackStates maps goroutine ids to the state the runtime's traceback
// shows in brackets ("chan receive", "running", "IO wait").
//
//go:norace
func tracebackStates() map[int64]string {
	out := map[int64]string{}
	for _, line := range bytes.Split(tracebackAll(), []byte("\n")) {
		for id, st := range parseHeader(string(line)) {
			out[id] = st
		}
	}
	return out
}

// tracebackAll is the traceback of every goroutine.
//
//go:norace
func tracebackAll() []byte {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// parseHeader reads "goroutine 18 [chan receive, 2 minutes]:" as
// {18: "chan receive"}; nothing for another line.
//
//go:norace
func parseHeader(line string) map[int64]string {
	if !strings.HasPrefix(line, "goroutine ") {
		return nil
	}
	rest := line[len("goroutine "):]
	i := strings.IndexByte(rest, ' ')
	if i < 0 {
		return nil
	}
	id, err := strconv.ParseInt(rest[:i], 10, 64)
	if err != nil {
		return nil
	}
	a, b := strings.IndexByte(rest, '['), strings.LastIndexByte(rest, ']')
	if a < 0 || b < a {
		return nil
	}
	st := rest[a+1 : b]
	if j := strings.IndexByte(st, ','); j >= 0 {
		st = st[:j] // "chan receive, 2 minutes"
	}
	return map[int64]string{id: st}
}

// runState reads what goroutine id, whose g is gp, is doing; for a
// blocked one, why ("IO wait"), when the reason is known.
//
//go:norace
//go:nocheckptr
func runState(gp unsafe.Pointer, id int64) (gRun, string) {
	if !gstatusOK || gp == nil {
		return runUnknown, ""
	}
	if readGoid(gp, goidOffset) != id {
		return runGone, "" // the g was reused: the goroutine exited
	}
	switch u32(gp, statusOffset) &^ gsScanBit {
	case gsRunning, gsRunnable:
		return runRunning, ""
	case gsSyscall:
		return runSyscall, "syscall"
	case gsDead:
		return runGone, ""
	case gsWaiting:
		r := u8(gp, reasonOffset)
		reasonMu.Lock()
		name, class := reasonNames[r], reasonBlocked[r]
		reasonMu.Unlock()
		if class == 0 && knownHidden(id, r) && waitingWith(gp, r) {
			return runBlocked, hiddenWait
		}
		if class == 0 {
			name, class = learnReason(gp, id, r)
		}
		switch class {
		case 1:
			return runBlocked, name
		case 2:
			return runTransient, name
		}
	}
	return runUnknown, ""
}

// learnReason names wait reason r from the traceback of goroutine id,
// which is waiting with it; a reason is learnt once per process.
//
// The goroutine may leave the wait and come back to it between the read
// of r and the traceback: a token holder under a busy collector goes
// from an assist ("GC assist marking", a pause) to its park on the token
// ("chan receive") and back in microseconds, and the assist's reason,
// once learnt as a channel receive, had the watchdog detach every holder
// the collector paused (a replay under -race that no longer followed its
// trace). So two tracebacks must agree, the goroutine must wait with r
// before, between and after them, and a name already another reason's
// is not taken (noteReason).
//
//go:norace
//go:nocheckptr
func learnReason(gp unsafe.Pointer, id int64, r uint8) (string, uint8) {
	name, shown := tracebackStates()[id]
	if !shown && waitingWith(gp, r) {
		noteHidden(id, r)
		return hiddenWait, 1
	}
	if name == "" || !waitingWith(gp, r) || tracebackStates()[id] != name || !waitingWith(gp, r) {
		return "", 0
	}
	return noteReason(r, name)
}

// A waiting goroutine the traceback leaves out is one of Go's own: its
// goroutine for finalizers, or one for cleanups, back in its loop after
// running a function of instrumented code, which took the token at its
// first hook. It waits there for the next collection, so it is blocked
// (hiddenWait); its reason has no name to learn, and without this the
// watchdog took it for computing and kept the token from the execution
// for its 100 ms. Such goroutines are remembered by id while they wait
// with the same reason, so the traceback is taken once.
const hiddenWait = "runtime wait"

// hiddenWaits are the hidden goroutines seen, by id, and their reasons.
var hiddenWaits = map[int64]uint8{}

//go:norace
func noteHidden(id int64, r uint8) {
	reasonMu.Lock()
	if len(hiddenWaits) > 64 {
		clear(hiddenWaits)
	}
	hiddenWaits[id] = r
	reasonMu.Unlock()
}

//go:norace
func knownHidden(id int64, r uint8) bool {
	reasonMu.Lock()
	defer reasonMu.Unlock()
	known, ok := hiddenWaits[id]
	return ok && known == r
}

// waitingWith reports whether the goroutine at gp waits with reason r.
//
//go:norace
//go:nocheckptr
func waitingWith(gp unsafe.Pointer, r uint8) bool {
	return u32(gp, statusOffset)&^gsScanBit == gsWaiting && u8(gp, reasonOffset) == r
}

// noteReason binds wait reason r to name, unless name is already bound to
// another reason: Go gives each reason a name of its own
// (runtime2.go's waitReasonStrings), so that is a misreading.
//
//go:norace
func noteReason(r uint8, name string) (string, uint8) {
	reasonMu.Lock()
	defer reasonMu.Unlock()
	for other, n := range reasonNames {
		if n == name && other != int(r) {
			return "", 0
		}
	}
	class := classifyReason(name)
	reasonNames[r], reasonBlocked[r] = name, class
	return name, class
}

// goState is the handle runState needs for a goroutine.
type goState struct {
	gp unsafe.Pointer
	id int64
}
