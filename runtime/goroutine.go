package runtime

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// gstate is where a controlled goroutine stands with respect to the token:
// the one permission to run that the goroutines of an execution pass around.
type gstate uint8

const (
	// gRunnable goroutines can take the next step; the token holder is one.
	gRunnable gstate = iota
	// gBlocked goroutines wait for an event another goroutine (or the
	// clock) causes; waitWhat says which.
	gBlocked
	// gDetached goroutines run uncontrolled code (the watchdog found them
	// holding the token too long, or they entered a call we know blocks
	// outside our control, such as testing.T.Run). They take the token
	// back at their next hook.
	gDetached
	// gDone goroutines have returned.
	gDone
)

//go:norace
func (s gstate) String() string {
	switch s {
	case gRunnable:
		return "runnable"
	case gBlocked:
		return "blocked"
	case gDetached:
		return "in uncontrolled code"
	case gDone:
		return "exited"
	}
	return "?"
}

// wakeKind is the message that hands a parked goroutine the token, or
// tells it the execution is being torn down.
type wakeKind uint8

const (
	wakeRun     wakeKind = iota // take the next step
	wakeAbort                   // the execution is over: runtime.Goexit
	wakeRelease                 // the execution is over and this goroutine is not its own: finish the operation uncontrolled
	wakeEnd                     // (test goroutine only) nothing can move any more
)

// goroutine is the runtime's record of one controlled goroutine.
type goroutine struct {
	id   int   // logical id: 0 is the test goroutine, then creation order
	goid int64 // the Go runtime's id, to recognize the goroutine in hooks
	e    *execution
	wake chan wakeKind // buffered(1): at most one message is ever pending

	state gstate
	// adopted goroutines were started by uncontrolled code and joined the
	// execution when they called a hook; they are released, not killed,
	// when it ends, and never reported as leaked.
	adopted bool
	// lockedThread: it called LockOSThread; its worker is not reused
	// (pool.go). Written and read by the goroutine itself.
	lockedThread bool
	// watcher goroutines do for the standard library what one of its own
	// goroutines would (watchedCtx): never reported as leaked.
	watcher bool
	parent  int
	// inRun is set while the goroutine waits in testing's t.Run for a
	// subtest that joined the execution (runParent is that subtest's
	// parent): it cannot come back before the subtest ends, so it is kept
	// out of e.ndetached, and the scheduler neither waits for it in real
	// time nor holds the virtual clock for it.
	inRun     bool
	runParent *goroutine
	// runT is the test whose t.Run started this subtest's goroutine; par
	// is set once it called t.Parallel (parallel.go).
	runT    *testing.T
	par     *parGroup
	subtest string // its name, for reports
	paused  bool   // waiting, in Parallel, for its parent's function to return
	// runPending: the subtest g started in t.Run has not reached the
	// runtime yet. runReserved: g keeps the token for its subtest and for
	// its own return from t.Run (subtests.go).
	runPending, runReserved bool
	runChild                *goroutine // the subtest that took the token g kept
	// runJoin, for dpor, is an object g's next step writes: the subtest
	// whose end (which wrote it too) g's return from t.Run follows.
	runJoin unsafe.Pointer
	created uintptr // pc of the go statement (0 for adopted goroutines)

	// op is the operation the goroutine is about to perform or is blocked
	// in; where is its source position, recorded only in detailed mode.
	op    opKind
	where string
	// In detailed mode (steps.go): the user stack of the operation, the
	// goroutine's latest step, its blocked step waiting to be resumed and
	// the one its latest step resumed (1-based step numbers, 0 none), and
	// the object an operation completed on its behalf acted on, for the
	// step at which it resumes.
	stackText                       string
	lastStep, blockedStep, resumeOf int
	pendObj                         int
	// opObj is the object of the operation in progress (a mutex, a
	// channel), set by its hook: a step that blocks names it.
	opObj unsafe.Pointer
	// ev is what op touches, for the strategies that use events
	// (events.go); holds are the Onces whose function the goroutine
	// runs: any of its steps may be the one that ends it.
	ev    evRecord
	holds []unsafe.Pointer
	// stack hashes the call sites at the goroutine's last scheduling
	// point and nsteps counts the steps it took, for state signatures
	// (states.go).
	stack  uint64
	nsteps int
	named  int // the step whose event last named objects (states.go)
	// seen hashes what the goroutine learnt: the state of what its steps
	// read, the cases and values decided for it, the values it drew
	// (states.go, observed). Its locals derive from it.
	seen uint64
	// waitObj names what a blocked goroutine waits on, for reports.
	waitObj string
	// poll, for a goroutine blocked on an object that uncontrolled code can
	// also change (a channel made outside instrumented code, ...), retries
	// the operation and reports whether it completed. eager pollers are
	// retried at every decision, others only when nothing else can run.
	poll  poller
	eager bool
	// watching: poll's watch, for an eager poller, gives its operation as
	// cases of the real select the watchdog waits in while the execution
	// is idle.
	watching bool
	// gp is the goroutine's g, to read what Go's scheduler says it does
	// (gstatus.go); detachedWhy is what it was doing when detached.
	gp          unsafe.Pointer
	detachedWhy string
	// aborted goroutines were told to exit when the execution was torn down.
	aborted bool
	// The goroutine's sync addresses for Go's race detector (tsan_on.go):
	// it releases its clock at tsanSnap before it parks and acquires
	// tsanInbox, and tsanStart once, when it resumes.
	tsanSnap, tsanInbox uint8
	tsanStart           unsafe.Pointer
	// chosenAt is the last step that chose g, or at which it became
	// runnable: a runnable goroutine left waiting long after it is
	// starved (fair.go).
	chosenAt int
	// With coverage (coverage.go): covPoint is the point of g's pending
	// operation + 1 (0: none), covSeq numbers g's operations; covRelSeq
	// and covRelObj are the operation and the object of g's last
	// counted release.
	covPoint  int32
	covSeq    uint32
	covRelSeq uint32
	covRelObj uintptr
	// at is g's stack at its last scheduling point, recorded when the
	// strategy steers by positions (locate.go); nil otherwise, as it is
	// half of g's size.
	at *stackPos
	// lockWait is the lock g is blocked on, if any (cycle.go).
	lockWait lockWait
	// timerWakes counts the timers that woke g after its test returned
	// (time.go, leak.go): a goroutine woken again and again is a loop.
	timerWakes int
	// awayReal and awayVirtual are the real and virtual instants at which
	// the watchdog found g running uncontrolled code, for the clock charge
	// when it comes back (charge.go).
	awayReal    time.Time
	awayVirtual time.Duration
}

// doing reads what Go's scheduler says g is doing.
//
//go:norace
func (g *goroutine) doing() (gRun, string) { return runState(g.gp, g.goid) }

// creationSite renders the position of the go statement that created g.
//
//go:norace
func (g *goroutine) creationSite() string {
	if g.id == 0 {
		return "test goroutine"
	}
	if g.created == 0 && g.runT != nil {
		return "subtest " + g.subtest
	}
	if g.created == 0 {
		return "started by uncontrolled code"
	}
	f := runtime.FuncForPC(g.created - 1)
	if f == nil {
		return "?"
	}
	file, line := f.FileLine(g.created - 1)
	return shortPos(file, line)
}

// name is how reports refer to g: "G2 (worker.go:31)".
//
//go:norace
func (g *goroutine) name() string {
	return "G" + itoa(g.id) + " (" + g.creationSite() + ")"
}

// callerFrame returns the frame of the user code that called the hook,
// skipping the frames of this package (and Go's runtime and testing).
//
//go:norace
func callerFrame() (runtime.Frame, bool) {
	var pcs [16]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !isRuntimeFrame(f.Function) {
			return f, true
		}
		if !more {
			return f, false
		}
	}
}

// callerPos is the position of the user code that called the hook.
//
//go:norace
func callerPos() string {
	if f, ok := callerFrame(); ok {
		return shortPos(f.File, f.Line)
	}
	return "?"
}

const selfPkg = "github.com/gosct/gosct/runtime."

//go:norace
func isRuntimeFrame(fn string) bool {
	return strings.HasPrefix(fn, selfPkg) || strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "testing.") || fn == ""
}

//go:norace
func shortPos(file string, line int) string {
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		file = file[i+1:]
	}
	return file + ":" + itoa(line)
}

//go:norace
func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}
