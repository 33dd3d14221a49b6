package runtime

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"
)

// record lists the races between the token holder me's access of kind
// at p (site s) and the earlier accesses fs in the execution's report,
// up to maxRaces (racesReport); gs are the execution's goroutines, main
// its test goroutine. Lock held.
//
//go:norace
func (d *detector) record(gs []*goroutine, main, me *goroutine, p unsafe.Pointer, kind uint8, s *Site, fs *raceFinds) {
	for i := 0; i < fs.n && len(d.hb.races) < maxRaces; i++ {
		d.add(raceBug(gs, me, p, kind, s, fs.f[i]), main)
	}
}

// add lists race b in the execution's report, unless it is listed
// already; the first is the bug. Lock held.
//
//go:norace
func (d *detector) add(b *bug, main *goroutine) {
	for _, r := range d.hb.races {
		if r.key == b.key {
			return
		}
	}
	d.hb.races = append(d.hb.races, raceRec{key: b.key, line: b.message})
	if d.hb.race == nil {
		d.hb.race = b
		tsanRelay(main) // the test goroutine reports it: see abortLocked
	}
}

// raceBug describes a race: both accesses, their goroutines (gs, the
// execution's), the variable.
//
//go:norace
func raceBug(gs []*goroutine, me *goroutine, p unsafe.Pointer, kind uint8, s *Site, f raceFoundAt) *bug {
	here, hereExpr := "?", ""
	if s != nil {
		here, hereExpr = s.Pos, s.Expr
	}
	if here == "" || here == "?" {
		here = "?"
		if pc := accessPC(); pc != 0 {
			here = pcPos(pc)
		}
	}
	stack := userStack(string(debug.Stack()))
	var other *goroutine
	if id := f.prev.id(); id < len(gs) {
		other = gs[id]
	}
	otherName, otherCreated, otherState := "G"+itoa(f.prev.id()), "?", "?"
	if other != nil {
		otherName, otherCreated, otherState = other.name(), other.creationSite(), other.state.String()
	}
	there, thereExpr := "", ""
	if f.prevSite != nil {
		there, thereExpr = f.prevSite.Pos, f.prevSite.Expr
	}
	otherStack := formatStack(f.prevStack)
	if there == "" && len(f.prevStack) > 0 {
		there = pcPos(f.prevStack[0])
	}
	otherPos := "(position recorded in detailed runs: see the trace's interleaving or gosct replay)"
	if there != "" {
		otherPos = "at " + there
	}
	what := hereExpr
	if what == "" {
		what = thereExpr
	}
	if what == "" {
		what = "0x" + hex(uintptr(p))
	}
	earlier := accessName(f.prevKind)
	if thereExpr != "" && thereExpr != what {
		earlier += " of " + thereExpr
	}
	b := &bug{kind: kindRace}
	b.message = fmt.Sprintf("data race on %s: %s by %s at %s, concurrent with an earlier %s by %s %s",
		what, accessName(kind), me.name(), here, earlier, otherName, otherPos)
	b.gs = []gsnap{
		{id: me.id, created: me.creationSite(), state: accessName(kind) + " of " + what + " at " + here, stack: stack},
		{id: f.prev.id(), created: otherCreated, state: otherState + ", earlier " + earlier + " " + otherPos, stack: otherStack},
	}
	// The same two sites race whichever comes first in a schedule.
	a, c := here, there
	if c == "" {
		c = "?"
	}
	if c < a {
		a, c = c, a
	}
	b.key = kindRace + ":" + a + "," + c
	return b
}

// formatStack renders the user frames of stk as a goroutine's stack in a
// report.
//
//go:norace
func formatStack(stk []uintptr) string {
	if len(stk) == 0 {
		return ""
	}
	var b strings.Builder
	frames := runtime.CallersFrames(stk)
	for {
		f, more := frames.Next()
		if f.Function != "" && (!isRuntimeFrame(f.Function) || strings.HasSuffix(f.File, "_test.go")) {
			b.WriteString(f.Function + "(...)\n\t" + f.File + ":" + itoa(f.Line) + "\n")
		}
		if !more {
			break
		}
	}
	return b.String()
}

//go:norace
func hex(x uintptr) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	i := len(b)
	for {
		i--
		b[i] = digits[x&15]
		x >>= 4
		if x == 0 {
			break
		}
	}
	return string(b[i:])
}

//go:norace
func accessName(kind uint8) string {
	s := "read"
	if kind&accWrite != 0 {
		s = "write"
	}
	if kind&accAtomic != 0 {
		s = "atomic " + s
	}
	return s
}

// atEnd is the execution's bug b with the race recorded in racesReport:
// the race becomes the bug unless a deeper bug (a panic, a deadlock, a
// leak, a goroutine's t.Fatal) ended the execution. A failed assertion in
// the test goroutine does not count as deeper: it is most often the
// race's own effect, and the race is its cause, so the report names the
// race and says the test (t, whose output is log) failed. Lock held.
//
//go:norace
func (d *detector) atEnd(b *bug, t *testing.T, log *testLog) *bug {
	if d.hb.race == nil {
		return b
	}
	if b != nil {
		// Reported with the deeper bug, which it may have caused.
		if b != d.hb.race {
			for _, r := range d.hb.races {
				b.more = append(b.more, "race: "+r.line)
			}
		}
		return b
	}
	b = d.hb.race
	for _, r := range d.hb.races[1:] {
		b.more = append(b.more, "race: "+r.line)
	}
	if t != nil && t.Failed() {
		b.message += "; the test then failed"
		if out, _ := log.text(); out != "" {
			b.output = out
			b.message += " (its output is below)"
		}
	}
	return b
}

// accessPC is the pc of the user code that made the access: the first
// frame outside gosct's runtime (its own tests count as user code).
//
//go:norace
func accessPC() uintptr {
	var pcs [16]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !isRuntimeFrame(f.Function) || strings.HasSuffix(f.File, "_test.go") {
			return f.PC + 1 // FuncForPC(pc-1) then finds the call
		}
		if !more {
			return 0
		}
	}
}

// accessStack is the stack of the user code that made an access, up to
// 16 frames from the first outside gosct's runtime (detailed executions).
//
//go:norace
func accessStack() []uintptr {
	var pcs [32]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for i := 0; ; i++ {
		f, more := frames.Next()
		if !isRuntimeFrame(f.Function) || strings.HasSuffix(f.File, "_test.go") {
			out := make([]uintptr, 0, 16)
			for j := i; j < n && len(out) < 16; j++ {
				out = append(out, pcs[j])
			}
			return out
		}
		if !more {
			return nil
		}
	}
}

//go:norace
func pcPos(pc uintptr) string {
	f := runtime.FuncForPC(pc - 1)
	if f == nil {
		return "?"
	}
	file, line := f.FileLine(pc - 1)
	return shortPos(file, line)
}
