package runtime

import (
	"os"
	"runtime"
	"sync"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// Positions for strategies that steer by them (strategies.Locating, guided
// search): when the execution's strategy asks, every goroutine records its
// stack (return addresses only, a few tens of nanoseconds) at each
// scheduling point it reaches, and the strategy resolves the stacks of
// the goroutines it ranks (strategies.Locator) into user frames, each
// return address once per process.
//
// Recording follows the frame pointers (amd64 and arm64 keep them), as
// Go's execution tracer does, instead of runtime.Callers, whose unwinding
// (a table look-up per frame) was most of a spinning test's cost under
// guided search. Frame pointers give one return address per physical
// frame, whereas runtime.Callers gives one per logical frame (inlined
// calls expanded, wrappers left out) and counts its skip and its limit in
// those; resolution expands each physical frame the way runtime.Callers
// would have (fpunwindExpand, Go's own expansion for the tracer), so that
// Where gives exactly the frames it gave with runtime.Callers: the first
// stackDepth logical frames from record's caller, filtered.

// stackDepth is how many frames a goroutine's recorded stack keeps: the
// innermost ones matter (the distance of a goroutine is mostly decided by
// its current function and the few calls below it). It counts logical
// frames, internal ones included (runtime.Callers' limit).
const stackDepth = 16

// physDepth is how many return addresses the frame pointer walk keeps.
// Each physical frame is one logical frame or more, unless it is a
// wrapper (left out); a wrapper calls what it wraps, which is not one, so
// a few wrappers in a row at most: 48 physical frames hold the first 16
// logical ones. A deeper walk costs only on stacks that deep.
const physDepth = 48

// stackPos is a goroutine's recorded position (guided search).
type stackPos struct {
	pcs [physDepth]uintptr
	npc int
	// logical tells that pcs are runtime.Callers' (at most stackDepth,
	// one per logical frame): where frame pointers cannot be followed.
	// Otherwise they are return addresses from the frame pointer walk.
	logical bool
	moves   int
	frames  []strategies.Frame // resolved pcs; valid while resolved == moves
	// resolved is moves+1 when frames are up to date (0: never resolved).
	resolved int
}

// record notes the stack of me, at its scheduling point. Called by yield
// before the lock, as the stack is me's own. It must not be inlined:
// fpCallers starts from record's frame, so that the first address is
// where record returns to in its caller, the frame runtime.Callers(2)
// starts with.
//
//go:noinline
//go:norace
func (w *stackPos) record() {
	if fpOn {
		if n, ok := fpCallers(&w.pcs[0], len(w.pcs), fpAvoid[0], fpAvoid[1]); ok {
			w.npc, w.logical = n, false
			w.moves++
			return
		}
	}
	w.npc = runtime.Callers(2, w.pcs[:stackDepth])
	w.logical = true
	w.moves++
}

var (
	fpOnce sync.Once
	// fpOn tells that record follows frame pointers: set once by
	// fpCalibrate, read-only after.
	fpOn bool
	// fpAvoid is the code of runtime.sigpanic (found by fpCalibrate), on
	// which the walk gives up: a fault can stop a function that has no
	// frame (a leaf), whose caller frame pointers do not show, whereas
	// runtime.Callers' tables do. Such stacks (in a deferred call run by
	// the panic of a nil dereference) are recorded by runtime.Callers.
	fpAvoid [2]uintptr
)

// fpCalibrate decides, once, whether record may follow frame pointers:
// where it can (haveFP), if g's first two words bound the calling
// goroutine's stack (fpCallers checks every frame pointer against them),
// if runtime.sigpanic's code is found and if a stack recorded both ways
// expands to the same program counters.
// Nothing is assumed that this did not see: otherwise record keeps
// runtime.Callers.
//
//go:norace
func fpCalibrate() {
	fpOnce.Do(func() {
		if !haveFP || !haveGetg || os.Getenv("GOSCT_NOFP") != "" {
			return
		}
		g := getg()
		lo, hi := gStackBounds(g)
		var x int
		at := uintptr(unsafe.Pointer(&x))
		if lo == 0 || hi <= lo || at < lo || at >= hi {
			return
		}
		lo, hi = sigpanicCode()
		if lo == 0 {
			return
		}
		fpAvoid = [2]uintptr{lo, hi}
		var ws [2]stackPos
		fpProbe(&ws)
		if ws[0].logical || !ws[1].logical {
			return
		}
		var got [stackDepth]uintptr
		n := expandWalk(&ws[0], got[:])
		want := ws[1].pcs[:ws[1].npc]
		if n != len(want) || n == 0 {
			return
		}
		for i := range want {
			if got[i] != want[i] {
				return
			}
		}
		fpOn = true
	})
}

// sigpanicCode returns the bounds of runtime.sigpanic's code (0, 0 if not
// found), seen on the stack of a deferred call after a nil dereference:
// its entry, and the first address past it that is in another function
// or none (binary search: the addresses of one function are contiguous).
//
//go:norace
func sigpanicCode() (lo, hi uintptr) {
	var pc uintptr
	func() {
		defer func() { _ = recover() }()
		defer func() {
			var pcs [32]uintptr
			frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs[:])])
			for {
				f, more := frames.Next()
				if f.Function == "runtime.sigpanic" {
					pc = f.PC
					return
				}
				if !more {
					return
				}
			}
		}()
		nilStore(nil)
	}()
	f := runtime.FuncForPC(pc)
	if pc == 0 || f == nil {
		return 0, 0
	}
	entry := f.Entry()
	in := func(p uintptr) bool {
		f := runtime.FuncForPC(p)
		return f != nil && f.Entry() == entry
	}
	// in(a) holds, in(b) does not.
	a, b := pc, pc+1<<20
	if in(b) {
		return 0, 0
	}
	for b-a > 1 {
		m := a + (b-a)/2
		if in(m) {
			a = m
		} else {
			b = m
		}
	}
	return entry, b
}

//go:noinline
//go:norace
func nilStore(p *int) { *p = 1 }

// gStackBounds reads g.stack (lo, hi), the first field of Go's g.
//
//go:nocheckptr
//go:norace
func gStackBounds(g unsafe.Pointer) (lo, hi uintptr) {
	return *(*uintptr)(g), *(*uintptr)(unsafe.Add(g, unsafe.Sizeof(uintptr(0))))
}

// fpProbe records its stack into ws[0] by frame pointers and into ws[1]
// by runtime.Callers, from the same call site.
//
//go:noinline
//go:norace
func fpProbe(ws *[2]stackPos) {
	for i := 0; i < 2; i++ {
		ws[i].recordAs(i == 0)
	}
}

// recordAs is record, the way told (fpCalibrate and tests).
//
//go:noinline
//go:norace
func (w *stackPos) recordAs(fp bool) {
	if fp {
		if n, ok := fpCallers(&w.pcs[0], len(w.pcs), fpAvoid[0], fpAvoid[1]); ok {
			w.npc, w.logical = n, false
			return
		}
	}
	w.npc = runtime.Callers(2, w.pcs[:stackDepth])
	w.logical = true
}

// expandWalk writes into dst (stackDepth long) the program counters
// runtime.Callers would have given for w's frame pointer walk, as Where
// expands it; fpCalibrate and tests compare them. pcFramesMu not held.
//
//go:norace
func expandWalk(w *stackPos, dst []uintptr) int {
	pcFramesMu.Lock()
	defer pcFramesMu.Unlock()
	n := 0
	panicked := false
	for _, pc := range w.pcs[:w.npc] {
		x, panics := physExpansion(pc, panicked)
		n += copy(dst[n:], x.pcs)
		panicked = panics
	}
	return n
}

// physExp is what a physical frame is for runtime.Callers: the program
// counters of its logical frames (inlined calls expanded, innermost first,
// wrappers left out), their user frames, and cum[i], how many of those
// the first i logical frames have (stackDepth may cut a physical frame).
type physExp struct {
	pcs    []uintptr
	frames []strategies.Frame
	cum    []int
}

// physEntry is a return address's physical frame, cached by physExpansion.
type physEntry struct {
	physExp
	// atPanic is the frame when its callee is a panic, if it differs:
	// runtime.Callers leaves a wrapper out unless it called gopanic,
	// sigpanic or panicwrap (the wrapper of a method with a value
	// receiver called on a nil pointer).
	atPanic *physExp
	// panics tells that the frame is one of those three functions.
	panics bool
}

// physExpansion returns the physical frame that returns to pc, whose
// callee is a panic or not (the previous frame's panics; record is not),
// and whether it is a panic itself. pcFramesMu held.
//
//go:norace
func physExpansion(pc uintptr, panicked bool) (*physExp, bool) {
	e := physCache[pc]
	if e == nil {
		e = newPhysEntry(pc)
		physCache[pc] = e
	}
	if panicked && e.atPanic != nil {
		return e.atPanic, e.panics
	}
	return &e.physExp, e.panics
}

// newPhysEntry expands pc as runtime.Callers would, with Go's own
// expansion for frame pointer stacks (fpunwindExpand), twice: after an
// ordinary callee, and after a panic (fpAvoid[0]+1, in sigpanic). A frame
// whose return address is the entry of a function (a call that ends its
// function; Go's assemblers pad after one, but to be sure) is taken, as
// runtime.Callers does, in the function that starts there: looked up at
// pc rather than pc-1. (runtime.Callers also looks up at pc a frame
// stopped by an injected call, runtime.sigpanic, but the walk gives up on
// those.) pcFramesMu held.
//
//go:norace
func newPhysEntry(pc uintptr) *physEntry {
	at := pc
	if f := runtime.FuncForPC(pc); f != nil && f.Entry() == pc {
		at++
	}
	dst := make([]uintptr, 1024)
	n := fpunwindExpand(dst, []uintptr{0, at})
	e := &physEntry{physExp: newPhysExp(dst[:n])}
	if n > 0 {
		f, _ := runtime.CallersFrames(dst[n-1 : n]).Next()
		switch f.Function {
		case "runtime.gopanic", "runtime.sigpanic", "runtime.panicwrap":
			e.panics = true
		}
	}
	n1 := fpunwindExpand(dst, []uintptr{0, fpAvoid[0] + 1})
	n2 := fpunwindExpand(dst, []uintptr{0, fpAvoid[0] + 1, at})
	if n2 < n1 {
		n2 = n1
	}
	if !equalPCs(dst[n1:n2], e.pcs) {
		x := newPhysExp(dst[n1:n2])
		e.atPanic = &x
	}
	return e
}

//go:norace
func newPhysExp(pcs []uintptr) physExp {
	x := physExp{pcs: append([]uintptr(nil), pcs...), cum: make([]int, 1, len(pcs)+1)}
	for _, l := range pcs {
		x.frames = append(x.frames, resolvePC(l)...)
		x.cum = append(x.cum, len(x.frames))
	}
	return x
}

//go:norace
func equalPCs(a, b []uintptr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// locator answers a strategy's questions on the goroutines of an
// execution (strategies.Locator, strategies.Spawner: Point.Where). It
// needs of the core the goroutines, by id: gs points to the execution's
// slice of them, which grows as goroutines are created.
type locator struct {
	gs *[]*goroutine
}

// Where implements strategies.Locator. Lock held (the strategy runs
// under it).
//
//go:norace
func (l *locator) Where(id int) (op string, frames []strategies.Frame, moves int) {
	gs := *l.gs
	if id < 0 || id >= len(gs) {
		return "", nil, 0
	}
	g := gs[id]
	w := g.at
	if w == nil { // not a locating execution's
		w = new(stackPos)
		g.at = w
	}
	if w.resolved != w.moves+1 {
		w.frames = w.frames[:0]
		pcFramesMu.Lock()
		if g.op == opStart || w.npc == 0 {
			if g.created != 0 {
				w.frames = append(w.frames, resolvePC(g.created)...)
			}
		} else if w.logical {
			for _, pc := range w.pcs[:w.npc] {
				w.frames = append(w.frames, resolvePC(pc)...)
			}
		} else {
			n := 0
			panicked := false
			for _, pc := range w.pcs[:w.npc] {
				if n == stackDepth {
					break
				}
				x, panics := physExpansion(pc, panicked)
				k := len(x.pcs)
				if k > stackDepth-n {
					k = stackDepth - n
				}
				w.frames = append(w.frames, x.frames[:x.cum[k]]...)
				n += k
				panicked = panics
			}
		}
		pcFramesMu.Unlock()
		w.resolved = w.moves + 1
	}
	return g.op.String(), w.frames, w.moves
}

var (
	pcFramesMu sync.Mutex
	pcFrames   = map[uintptr][]strategies.Frame{}
	// physCache holds the physical frames of return addresses
	// (physExpansion).
	physCache = map[uintptr]*physEntry{}
	// internalFrame tells the frames left out; tests of this package,
	// whose own functions are in it, replace it.
	internalFrame = isRuntimeFrame
)

// resolvePC returns the user frames of one return address (several when
// calls were inlined there), innermost first; the frames of gosct's
// runtime, Go's runtime and package testing are left out. pcFramesMu
// held.
//
//go:norace
func resolvePC(pc uintptr) []strategies.Frame {
	if fs, ok := pcFrames[pc]; ok {
		return fs
	}
	var fs []strategies.Frame
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		f, more := frames.Next()
		if !internalFrame(f.Function) {
			fs = append(fs, strategies.Frame{File: f.File, Line: f.Line})
		}
		if !more {
			break
		}
	}
	pcFrames[pc] = fs
	return fs
}
