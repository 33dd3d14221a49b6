package runtime

import (
	"runtime"
	"strings"
	"unsafe"

	"github.com/gosct/gosct/replay"
)

// The steps of a detailed execution: the schedule as people read it (the
// report's interleaving table, the trace's Steps, `gosct view`).
//
// A decision is a choice between goroutines, not an operation: decision k
// lets goroutine G perform the operation it is stopped at and run on to
// its next scheduling point. So a step is recorded when it happens, for
// the goroutine that does it:
//   - when a decision chooses G, G's pending operation (choose);
//   - when G executes a go statement, a "go" step of G: the go
//     statement's scheduling point comes after the new goroutine exists,
//     so the decision that follows may already run the child, and only a
//     step recorded at the go statement itself comes before the child's
//     start (spawn). The decision after it, when it picks G, has no
//     operation of its own: G goes on from its go statement;
//   - when G's operation cannot complete, the step is marked blocked with
//     what G waits on (block); G's next step is the same operation,
//     completed once another goroutine made it possible;
//   - when G returns, an "exit" step.
// Each step names the object it acted on (noteObj: the synchronization
// the runtime models, numbered in order of first use), which is what the
// causality checks of replay.CheckSteps follow.

// stepLog is what a detailed execution records of its steps.
type stepLog struct {
	rows []replay.Step
	// objs numbers the objects the steps acted on; stacks are the
	// distinct user stacks of the steps, stackIdx their index by hash.
	objs     rmap[unsafe.Pointer, int]
	nobjs    int
	stacks   []string
	stackIdx rmap[uint64, int]
}

// maxStepRows bounds the steps a detailed execution keeps: a livelock's
// schedule runs for hundreds of thousands of decisions, and the steps
// that matter to a reader are the last ones (where its bug is).
const maxStepRows = 100_000

// addStep appends a step at the current decision and returns its number
// (1-based index). Lock held.
//
//go:norace
func (e *execution) addStep(s replay.Step) int {
	l := &e.stepLog
	if len(l.rows) >= maxStepRows {
		n := len(l.rows) / 2 // drop the first half
		for i := 0; i < len(l.rows)-n; i++ {
			l.rows[i] = l.rows[n+i]
		}
		l.rows = l.rows[:len(l.rows)-n]
		for _, g := range e.gs {
			g.lastStep = max(g.lastStep-n, 0)
			g.blockedStep = max(g.blockedStep-n, 0)
		}
	}
	s.Decision = len(e.trail)
	l.rows = append(l.rows, s)
	return len(l.rows)
}

// step returns the step numbered i (1-based), or nil. Lock held.
//
//go:norace
func (e *execution) step(i int) *replay.Step {
	if i <= 0 || i > len(e.stepLog.rows) {
		return nil
	}
	return &e.stepLog.rows[i-1]
}

// stepChosen records the step a goroutine decision gave g. Lock held.
//
//go:norace
func (e *execution) stepChosen(g *goroutine) {
	if g.op == opGo {
		return // g goes on from its go statement, a step of its own already
	}
	g.lastStep = e.addStep(replay.Step{G: g.id, Op: g.op.String(), Pos: g.where, Stack: e.internStack(g.stackText), Obj: g.pendObj})
	g.pendObj = 0
	g.resumeOf, g.blockedStep = g.blockedStep, 0
	if b := e.step(g.resumeOf); b != nil && b.Obj == 0 && b.Op == g.op.String() {
		b.Obj = e.step(g.lastStep).Obj
	}
}

// stepBlocked marks me's step blocked on what: the operation it is at could
// not complete. Sleep and friends block without a scheduling point before
// them: they get a step of their own. Lock held.
//
//go:norace
func (e *execution) stepBlocked(me *goroutine, what string) {
	if what == "" {
		what = me.op.String()
	}
	if s := e.step(me.lastStep); s != nil && s.G == me.id && s.Decision == len(e.trail) && s.Op == me.op.String() && s.Blocked == "" {
		s.Blocked = what
	} else {
		me.lastStep = e.addStep(replay.Step{G: me.id, Op: me.op.String(), Pos: me.where, Stack: e.internStack(me.stackText), Blocked: what})
	}
	me.blockedStep = me.lastStep
	if s := e.step(me.lastStep); s.Obj == 0 && me.opObj != nil {
		s.Obj = e.objNum(me.opObj)
	}
}

// stepSpawned records parent's go statement at pos (with parent's stack),
// which created child; parent is nil for a goroutine the clock started
// (time.AfterFunc). Lock held.
//
//go:norace
func (e *execution) stepSpawned(parent, child *goroutine, pos, stack string) {
	s := replay.Step{G: -1, Op: "timer fires", Child: child.id, Pos: pos}
	if parent != nil {
		s.G, s.Op = parent.id, opGo.String()
	}
	s.Stack = e.internStack(stack)
	e.addStep(s)
}

// stepExited records g's return (or its panic). Lock held.
//
//go:norace
func (e *execution) stepExited(g *goroutine, panicked bool) {
	op := "exit"
	if panicked {
		op = "panic"
	}
	e.addStep(replay.Step{G: g.id, Op: op})
}

// noteObj records that g's operation acted on the object at p: g's step
// at the current decision names it. An operation completed on g's behalf
// by another goroutine (a sender handing its value to a blocked receiver)
// names it on g's blocked step and on the step at which g resumes. Lock
// held.
//
//go:norace
func (e *execution) noteObj(g *goroutine, p unsafe.Pointer) {
	if !e.set.detailed || g == nil || p == nil {
		return
	}
	n := e.objNum(p)
	s := e.step(g.lastStep)
	if s == nil || s.G != g.id {
		g.pendObj = n
		return
	}
	if s.Blocked != "" {
		if s.Obj == 0 {
			s.Obj = n
		}
		g.pendObj = n // its next step completes the operation
		return
	}
	if s.Decision == len(e.trail) && s.Obj == 0 {
		s.Obj = n
		if r := e.step(g.resumeOf); r != nil && r.G == g.id && r.Obj == 0 && r.Op == s.Op {
			r.Obj = n // the blocked attempt of the operation this step completed
		}
	}
}

// internStack returns 1 + the index of stack among the execution's
// stacks, adding it if new; 0 for no stack.
//
//go:norace
func (e *execution) internStack(stack string) int {
	if stack == "" {
		return 0
	}
	l := &e.stepLog
	h := uint64(14695981039346656037)
	for i := 0; i < len(stack); i++ {
		h = (h ^ uint64(stack[i])) * 1099511628211
	}
	for ; ; h++ { // collisions probe the next hash
		i := l.stackIdx.get(h)
		if i == 0 {
			l.stacks = append(l.stacks, stack)
			l.stackIdx.put(h, len(l.stacks))
			return len(l.stacks)
		}
		if l.stacks[i-1] == stack {
			return i
		}
	}
}

// callerWhere is the position of the user code that called the hook and
// the user frames of the stack above it ("pkg.F\n\tfile.go:12\n" each,
// innermost first, at most 16).
//
//go:norace
func callerWhere() (pos, stack string) {
	var pcs [40]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	var b strings.Builder
	k := 0
	for {
		f, more := frames.Next()
		if !isRuntimeFrame(f.Function) {
			p := shortPos(f.File, f.Line)
			if pos == "" {
				pos = p
			}
			if k < 16 {
				b.WriteString(f.Function)
				b.WriteString("\n\t")
				b.WriteString(p)
				b.WriteByte('\n')
				k++
			}
		}
		if !more {
			break
		}
	}
	if pos == "" {
		pos = "?"
	}
	return pos, b.String()
}

// where records, in detailed mode, the position and stack of me's
// operation at the hook that called it.
//
//go:norace
func where(me *goroutine) {
	me.where, me.stackText = callerWhere()
	me.opObj = nil
}

// objNum numbers the object at p, in order of first use. Lock held.
//
//go:norace
func (e *execution) objNum(p unsafe.Pointer) int {
	l := &e.stepLog
	n := l.objs.get(p)
	if n == 0 {
		l.nobjs++
		n = l.nobjs
		l.objs.put(p, n)
	}
	return n
}
