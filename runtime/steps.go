package runtime

import (
	"runtime"
	"strings"
	"unsafe"

	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
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

// stepLog is what a detailed execution records of its steps. It needs
// from the scheduler only what its methods take: the number of decisions
// taken so far (at: a step belongs to the decision that led to it), and
// the goroutines, whose step numbers it renumbers when it drops old rows.
type stepLog struct {
	// on: the execution is detailed (settings.detailed); the objects of
	// operations are numbered only then (noteObj).
	on bool
	// ops is the operation of each decision's choice, enabled the
	// choices of each goroutine decision, by its index (nil for the
	// other kinds).
	ops     []strategies.Op
	enabled [][]int
	rows    []replay.Step
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

// add appends a step at decision at (the number of decisions taken) and
// returns its number (1-based index); the step numbers the goroutines gs
// keep shift when old rows are dropped. Lock held.
//
//go:norace
func (l *stepLog) add(s replay.Step, at int, gs []*goroutine) int {
	if len(l.rows) >= maxStepRows {
		n := len(l.rows) / 2 // drop the first half
		for i := 0; i < len(l.rows)-n; i++ {
			l.rows[i] = l.rows[n+i]
		}
		l.rows = l.rows[:len(l.rows)-n]
		for _, g := range gs {
			g.lastStep = max(g.lastStep-n, 0)
			g.blockedStep = max(g.blockedStep-n, 0)
		}
	}
	s.Decision = at
	l.rows = append(l.rows, s)
	return len(l.rows)
}

// decided records the operation of the choice of decision at (1-based)
// and, for a goroutine decision, its choices (enabled; nil for the other
// kinds): a trace's reader (gosct confirm) tells from them where the
// schedule departed from its default. No map and no copy: under -race
// Go's runtime reports their accesses from where //go:norace does not
// reach (slices.go). Lock held.
//
//go:norace
func (l *stepLog) decided(op strategies.Op, enabled []int, at int) {
	l.ops = append(l.ops, op)
	if enabled != nil {
		for len(l.enabled) < at-1 {
			l.enabled = append(l.enabled, nil)
		}
		l.enabled = append(l.enabled, copyInts(enabled))
	}
}

// step returns the step numbered i (1-based), or nil. Lock held.
//
//go:norace
func (l *stepLog) step(i int) *replay.Step {
	if i <= 0 || i > len(l.rows) {
		return nil
	}
	return &l.rows[i-1]
}

// chosen records the step a goroutine decision gave g. Lock held.
//
//go:norace
func (l *stepLog) chosen(g *goroutine, at int, gs []*goroutine) {
	if g.op == opGo {
		return // g goes on from its go statement, a step of its own already
	}
	g.lastStep = l.add(replay.Step{G: g.id, Op: g.op.String(), Pos: g.where, Stack: l.internStack(g.stackText), Obj: g.pendObj}, at, gs)
	g.pendObj = 0
	g.resumeOf, g.blockedStep = g.blockedStep, 0
	if b := l.step(g.resumeOf); b != nil && b.Obj == 0 && b.Op == g.op.String() {
		b.Obj = l.step(g.lastStep).Obj
	}
}

// blocked marks me's step blocked on what: the operation it is at could
// not complete. Sleep and friends block without a scheduling point before
// them: they get a step of their own. Lock held.
//
//go:norace
func (l *stepLog) blocked(me *goroutine, what string, at int, gs []*goroutine) {
	if what == "" {
		what = me.op.String()
	}
	if s := l.step(me.lastStep); s != nil && s.G == me.id && s.Decision == at && s.Op == me.op.String() && s.Blocked == "" {
		s.Blocked = what
	} else {
		me.lastStep = l.add(replay.Step{G: me.id, Op: me.op.String(), Pos: me.where, Stack: l.internStack(me.stackText), Blocked: what}, at, gs)
	}
	me.blockedStep = me.lastStep
	if s := l.step(me.lastStep); s.Obj == 0 && me.opObj != nil {
		s.Obj = l.objNum(me.opObj)
	}
}

// spawned records parent's go statement at pos (with parent's stack),
// which created child; parent is nil for a goroutine the clock started
// (time.AfterFunc). Lock held.
//
//go:norace
func (l *stepLog) spawned(parent, child *goroutine, pos, stack string, at int, gs []*goroutine) {
	s := replay.Step{G: -1, Op: "timer fires", Child: child.id, Pos: pos}
	if parent != nil {
		s.G, s.Op = parent.id, opGo.String()
	}
	s.Stack = l.internStack(stack)
	l.add(s, at, gs)
}

// exited records g's return (or its panic). Lock held.
//
//go:norace
func (l *stepLog) exited(g *goroutine, panicked bool, at int, gs []*goroutine) {
	op := "exit"
	if panicked {
		op = "panic"
	}
	l.add(replay.Step{G: g.id, Op: op}, at, gs)
}

// noteObj records that g's operation acted on the object at p: g's step
// at the current decision names it. An operation completed on g's behalf
// by another goroutine (a sender handing its value to a blocked receiver)
// names it on g's blocked step and on the step at which g resumes. Lock
// held.
//
//go:norace
func (l *stepLog) noteObj(g *goroutine, p unsafe.Pointer, at int) {
	if !l.on || g == nil || p == nil {
		return
	}
	n := l.objNum(p)
	s := l.step(g.lastStep)
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
	if s.Decision == at && s.Obj == 0 {
		s.Obj = n
		if r := l.step(g.resumeOf); r != nil && r.G == g.id && r.Obj == 0 && r.Op == s.Op {
			r.Obj = n // the blocked attempt of the operation this step completed
		}
	}
}

// trailSteps is the step log as the race detector sees it (objNoter):
// the current decision is the trail's length, which the core keeps.
type trailSteps struct {
	log   *stepLog
	trail *[]decision
}

// noteObj numbers the object of g's step at the current decision. Lock
// held.
//
//go:norace
func (t trailSteps) noteObj(g *goroutine, p unsafe.Pointer) {
	t.log.noteObj(g, p, len(*t.trail))
}

// internStack returns 1 + the index of stack among the execution's
// stacks, adding it if new; 0 for no stack.
//
//go:norace
func (l *stepLog) internStack(stack string) int {
	if stack == "" {
		return 0
	}
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
func (l *stepLog) objNum(p unsafe.Pointer) int {
	n := l.objs.get(p)
	if n == 0 {
		l.nobjs++
		n = l.nobjs
		l.objs.put(p, n)
	}
	return n
}
