package runtime

import (
	"runtime"
	"sync"

	"github.com/gosct/gosct/strategies"
)

// Positions for strategies that steer by them (strategies.Locating, guided
// search): when the execution's strategy asks, every goroutine records its
// stack (program counters only, a few hundred nanoseconds) at each
// scheduling point it reaches, and the strategy resolves the stacks of
// the goroutines it ranks (strategies.Locator) into user frames, each
// program counter once per process.

// stackDepth is how many frames a goroutine's recorded stack keeps: the
// innermost ones matter (the distance of a goroutine is mostly decided by
// its current function and the few calls below it).
const stackDepth = 16

// stackPos is a goroutine's recorded position (guided search).
type stackPos struct {
	pcs    [stackDepth]uintptr
	npc    int
	moves  int
	frames []strategies.Frame // resolved pcs; valid while resolved == moves
	// resolved is moves+1 when frames are up to date (0: never resolved).
	resolved int
}

// record notes the stack of me, at its scheduling point. Called by yield
// before the lock, as the stack is me's own.
//
//go:norace
func (w *stackPos) record() {
	w.npc = runtime.Callers(2, w.pcs[:])
	w.moves++
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
	w := &g.at
	if w.resolved != w.moves+1 {
		w.frames = w.frames[:0]
		pcFramesMu.Lock()
		if g.op == opStart || w.npc == 0 {
			if g.created != 0 {
				w.frames = append(w.frames, resolvePC(g.created)...)
			}
		} else {
			for _, pc := range w.pcs[:w.npc] {
				w.frames = append(w.frames, resolvePC(pc)...)
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
