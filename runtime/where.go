package runtime

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Where a bug report points. Every report starts with one user location,
// "file:line: kind: message", that an editor, a terminal or a CI
// annotation turns into a link: the blocked operation of a deadlock or a
// leak, the racing access, the panic site, the call that failed the test.
// Positions are absolute here; the command makes them relative to its
// working directory, as go test prints them.
//
// A goroutine's stack often runs through code that is not the user's to
// change (a library the test calls, a helper of testify): the location is
// the innermost frame of the package under test when the stack has one,
// else the innermost user frame. A panic and a racing access are where
// they happen, wherever that is.

// testedPkg is the import path of the package under test (wire.Config),
// whose frames a location prefers.
var testedPkg string

// frame is one frame of a filtered stack (filterLines' output).
type frame struct {
	fn   string
	file string
	line int
}

// pos renders the frame's position, "" when unknown.
//
//go:norace
func (f frame) pos() string {
	if f.file == "" {
		return ""
	}
	return f.file + ":" + itoa(f.line)
}

// stackFrames parses a filtered stack, innermost first, without the
// "created by" entry (the go statement, not an active frame).
//
//go:norace
func stackFrames(stack string) []frame {
	lines := strings.Split(stack, "\n")
	var out []frame
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if fn == "" || strings.HasPrefix(fn, "\t") {
			continue
		}
		pos := strings.TrimSpace(lines[i+1])
		i++
		if strings.HasPrefix(fn, "created by ") {
			continue
		}
		if j := strings.LastIndex(pos, " +0x"); j >= 0 {
			pos = pos[:j]
		}
		c := strings.LastIndexByte(pos, ':')
		if c < 0 {
			continue
		}
		line, err := strconv.Atoi(pos[c+1:])
		if err != nil {
			continue
		}
		if j := strings.LastIndexByte(fn, '('); j > 0 {
			fn = fn[:j]
		}
		out = append(out, frame{fn: fn, file: pos[:c], line: line})
	}
	return out
}

// ownFrame reports whether fn (a function name as stacks print it)
// belongs to the package under test or its external test package.
//
//go:norace
func ownFrame(fn string) bool {
	return testedPkg != "" && (strings.HasPrefix(fn, testedPkg+".") || strings.HasPrefix(fn, testedPkg+"_test."))
}

// preferOwn is the innermost frame of the package under test, else the
// innermost frame; ok is false for no frame.
//
//go:norace
func preferOwn(fs []frame) (frame, bool) {
	for _, f := range fs {
		if ownFrame(f.fn) {
			return f, true
		}
	}
	if len(fs) > 0 {
		return fs[0], true
	}
	return frame{}, false
}

// where is the bug's user location, "file:line" with an absolute file, ""
// when the runtime cannot tell.
//
//go:norace
func (b *bug) where() string {
	if b.at != "" {
		return b.at
	}
	switch b.kind {
	case kindPanic, kindRace:
		// Where it happened: the first goroutine is the one that
		// panicked or made the racing access.
		if len(b.gs) > 0 {
			if fs := stackFrames(b.gs[0].stack); len(fs) > 0 {
				return fs[0].pos()
			}
		}
		return ""
	}
	// A deadlock, a leak, a livelock: the operation of the first goroutine
	// other than the test goroutine (whose wait is most often the symptom:
	// wg.Wait, a receive of the result), the test goroutine's when it is
	// alone. A failure without its call site: the goroutine reported.
	var chosen []frame
	for _, g := range b.gs {
		fs := stackFrames(g.stack)
		if len(fs) == 0 {
			continue
		}
		if chosen == nil {
			chosen = fs
		}
		if g.id != 0 {
			chosen = fs
			break
		}
	}
	if f, ok := preferOwn(chosen); ok {
		return f.pos()
	}
	return ""
}

// reportSite remembers the last call through t that may report (T, TB),
// to name the call that failed the test: when the test is found failed at
// the next such call, or at the end of the schedule, the previous one did
// it. One goroutine runs at a time, so "previous" is well defined.
type reportSite struct {
	t   *testing.T
	pcs [24]uintptr
	n   int
	// failedAt is the position of the call that failed the test, once
	// known.
	failedAt string
}

// noteReport records a call through t that may report, from the hook the
// user's code called (T). Lock held.
//
//go:norace
func (o *oracle) noteReport(t *testing.T) {
	o.checkFailed()
	if o.lastReport.failedAt != "" {
		return
	}
	o.lastReport.t = t
	o.lastReport.n = runtime.Callers(3, o.lastReport.pcs[:])
}

// checkFailed names the previous reporting call as the one that failed the
// test if the test has failed since. Lock held.
//
//go:norace
func (o *oracle) checkFailed() {
	r := &o.lastReport
	if r.failedAt != "" || r.t == nil || !r.t.Failed() {
		return
	}
	var fs []frame
	frames := runtime.CallersFrames(r.pcs[:r.n])
	for {
		f, more := frames.Next()
		if !isRuntimeFrame(f.Function) && f.File != "" {
			fs = append(fs, frame{fn: f.Function, file: f.File, line: f.Line})
		}
		if !more {
			break
		}
	}
	if f, ok := preferOwn(fs); ok {
		r.failedAt = f.pos()
	}
	r.t = nil
}

// failedAt is the position of the call that failed the test, "" when
// unknown. Lock held or the execution over.
//
//go:norace
func (o *oracle) failedAt() string {
	o.checkFailed()
	return o.lastReport.failedAt
}
