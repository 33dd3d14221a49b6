package runtime

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"unsafe"
)

// raceFound handles a race between the token holder's access at p and
// the earlier access prev. Lock held; released (in racesSync the calling
// goroutine ends).
//
//go:norace
func (e *execution) raceFound(me *goroutine, p unsafe.Pointer, write bool, prev epoch, prevWrite bool, prevPC uintptr) {
	if e.hb.race != nil && e.set.races == racesReport {
		e.mu.Unlock()
		return // one race per execution: the first
	}
	b := e.raceBug(me, p, write, prev, prevWrite, prevPC)
	if e.set.races == racesReport {
		e.hb.race = b
		tsanRelay(e.main) // the test goroutine reports it: see abortLocked
		e.mu.Unlock()
		return
	}
	e.abortLocked(me, b)
	e.mu.Unlock()
	e.die(me)
}

// raceBug describes a race: both accesses, their goroutines, the variable.
//
//go:norace
func (e *execution) raceBug(me *goroutine, p unsafe.Pointer, write bool, prev epoch, prevWrite bool, prevPC uintptr) *bug {
	here := "?"
	if pc := accessPC(); pc != 0 {
		here = pcPos(pc)
	}
	stack := userStack(string(debug.Stack()))
	var other *goroutine
	if id := prev.id(); id < len(e.gs) {
		other = e.gs[id]
	}
	otherName, otherCreated, otherState := "G"+itoa(prev.id()), "?", "?"
	if other != nil {
		otherName, otherCreated, otherState = other.name(), other.creationSite(), other.state.String()
	}
	otherPos := "(position recorded in detailed runs: see the trace's interleaving or gosct replay)"
	otherStack := ""
	if prevPC != 0 {
		if f := runtime.FuncForPC(prevPC - 1); f != nil {
			file, line := f.FileLine(prevPC - 1)
			otherPos = "at " + shortPos(file, line)
			otherStack = f.Name() + "(...)\n\t" + file + ":" + itoa(line) + "\n"
		}
	}
	b := &bug{kind: kindRace}
	b.message = fmt.Sprintf("data race on %#x: %s by %s at %s, concurrent with an earlier %s by %s %s",
		uintptr(p), accessName(write), me.name(), here, accessName(prevWrite), otherName, otherPos)
	b.gs = []gsnap{
		{id: me.id, created: me.creationSite(), state: accessName(write) + " at " + here, stack: stack},
		{id: prev.id(), created: otherCreated, state: otherState + ", earlier " + accessName(prevWrite) + " " + otherPos, stack: otherStack},
	}
	b.key = kindRace + ":" + here + ":" + accessName(write) + "/" + accessName(prevWrite)
	return b
}

//go:norace
func accessName(write bool) string {
	if write {
		return "write"
	}
	return "read"
}

// raceAtEnd makes the race recorded in racesReport the execution's bug,
// unless a deeper bug (a panic, a deadlock, a leak, a goroutine's
// t.Fatal) ended it. A failed assertion in the test goroutine does not
// count as deeper: it is most often the race's own effect, and the race
// is its cause, so the report names the race and says the test failed.
// Lock held.
//
//go:norace
func (e *execution) raceAtEnd() {
	if e.bug != nil || e.hb.race == nil {
		return
	}
	e.bug = e.hb.race
	if e.t != nil && e.t.Failed() {
		e.bug.message += "; the test then failed (its output is above)"
	}
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

//go:norace
func pcPos(pc uintptr) string {
	f := runtime.FuncForPC(pc - 1)
	if f == nil {
		return "?"
	}
	file, line := f.FileLine(pc - 1)
	return shortPos(file, line)
}
