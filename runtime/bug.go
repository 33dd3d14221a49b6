package runtime

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/gosct/gosct/internal/wire"
)

// Bug kinds, as the command and traces name them.
const (
	kindDeadlock = "deadlock"
	kindLeak     = "leak"
	kindPanic    = "panic"
	kindFailure  = "failure"
	kindRace     = "race"
	kindLivelock = "livelock"
	// kindStuck is not a bug but a verdict: goroutines of the test stayed
	// in uncontrolled code past the bound (idle.go). It is reported as an
	// error of the test.
	kindStuck = wire.StopStuck
)

// bug is what went wrong in an execution.
type bug struct {
	kind    string
	message string
	// gs describes the goroutines involved, or all of them.
	gs []gsnap
	// key identifies the bug across schedules: kind and sites.
	key string
	// more are one-line descriptions of the other bugs of the execution
	// that the report lists (the other races of a schedule).
	more []string
	// reported is set once the schedule's subtest printed the report.
	reported bool
	// at is the bug's user location when its constructor knows it (the
	// call that failed the test); otherwise where finds it in gs.
	at string
	// output is, for a failure of the test itself, what the schedule's
	// test wrote (t.Log, t.Error...).
	output string
	// timing, for a timing-dependent bug, is what it needs (timing.go).
	timing string
}

// oracle tells what went wrong in an execution. Given the goroutines'
// states (the core's goroutines, or those involved, passed to each of its
// methods), it returns the bug: a deadlock, a leak (leak.go), a livelock,
// a panic, a failure, a cycle of lock waits (cycle.go), a late use of t
// (testuse.go). Its own state is the last call through t that may report
// (where.go), which locates a failure of the test. It needs nothing else
// of the core.
type oracle struct {
	// lastReport names the call that failed the test (where.go).
	lastReport reportSite
}

// gsnap is a goroutine as a report shows it.
type gsnap struct {
	id      int
	created string
	state   string
	waiting string
	stack   string
}

// snapshot describes the goroutines gs, with their stacks. Lock held.
//
//go:norace
func snapshot(gs []*goroutine) []gsnap {
	stacks := allStacks()
	out := make([]gsnap, 0, len(gs))
	for _, g := range gs {
		s := gsnap{id: g.id, created: g.creationSite(), state: g.state.String(), stack: stacks[g.goid].user}
		if g.state == gDetached {
			// Not stopped in a hook: its whole stack is the user's.
			s.stack = stacks[g.goid].all
		}
		if g.state == gBlocked {
			s.waiting = g.op.String()
			if g.waitObj != "" {
				s.waiting += " (" + g.waitObj + ")"
			}
		}
		if g.inRun {
			s.state = "waiting for its subtest (t.Run)"
		} else if g.state == gDetached {
			why := g.detachedWhy
			if st, w := g.doing(); st == runBlocked || st == runSyscall {
				why = w
			}
			s.waiting = why
			s.state += " at " + s.uncontrolledAt()
		}
		out = append(out, s)
	}
	return out
}

// blockedGoroutines are the goroutines of all that are blocked, the
// adopted ones too if includeAdopted.
//
//go:norace
func blockedGoroutines(all []*goroutine, includeAdopted bool) []*goroutine {
	var gs []*goroutine
	for _, g := range all {
		if g.state == gBlocked && (includeAdopted || !g.adopted) {
			gs = append(gs, g)
		}
	}
	return gs
}

// deadlock is the bug of an execution whose goroutines all are blocked.
//
//go:norace
func (o *oracle) deadlock(all []*goroutine) *bug {
	gs := blockedGoroutines(all, true)
	for _, g := range all {
		if g.state == gDetached && !g.inRun {
			gs = append(gs, g) // in uncontrolled code, and blocked there
		}
	}
	b := &bug{kind: kindDeadlock, gs: snapshot(gs)}
	b.message = fmt.Sprintf("all goroutines are blocked: %s", waitList(b.gs))
	b.key = kindDeadlock + ":" + siteKey(b.gs)
	return b
}

// leak is the bug of the goroutines gs, leaked (leaked).
//
//go:norace
func (o *oracle) leak(gs []*goroutine) *bug {
	b := &bug{kind: kindLeak, gs: snapshot(gs)}
	b.message = fmt.Sprintf("%d goroutine(s) leaked after the test returned (blocked for ever, or looping on timers that nothing stops): %s", len(gs), waitList(b.gs))
	b.key = kindLeak + ":" + siteKey(b.gs)
	return b
}

// panicked is the bug of g, which panicked with r (stack); isMain: g is
// the test goroutine.
//
//go:norace
func (o *oracle) panicked(g *goroutine, isMain bool, r any, stack []byte) *bug {
	b := &bug{kind: kindPanic, gs: []gsnap{{id: g.id, created: g.creationSite(), state: "panicking", stack: userStack(string(stack))}}}
	who := "goroutine " + g.name()
	if isMain {
		who = "the test goroutine"
	}
	b.message = fmt.Sprintf("panic in %s: %v", who, r)
	b.key = kindPanic + ":" + fmt.Sprint(r) + ":" + firstFrame(b.gs[0].stack)
	return b
}

// goexit is the bug of g, not the test goroutine, which called
// t.FailNow; stack is g's, taken while Goexit ran its deferred calls, so
// it still holds the frames down to the failing check. Those name the
// check when the runtime did not see the call that failed the test (a
// library's assertion, testify's require, calls t through an interface
// gosct does not rewrite).
//
//go:norace
func (o *oracle) goexit(g *goroutine, stack []byte) *bug {
	b := &bug{kind: kindFailure, gs: []gsnap{{id: g.id, created: g.creationSite(), state: "exited", stack: userStack(string(stack))}}}
	b.message = fmt.Sprintf("t.FailNow (t.Fatal...) called from goroutine %s, not the test goroutine: only the test's own goroutine may call it", g.name())
	b.key = kindFailure + ":goexit:" + g.creationSite()
	b.at = o.failedAt()
	return b
}

// livelock is the bug of the goroutines all, which went window steps
// without progress (fair.go).
//
//go:norace
func (o *oracle) livelock(all []*goroutine, window int) *bug {
	var gs []*goroutine
	for _, g := range all {
		if g.state != gDone {
			gs = append(gs, g)
		}
	}
	b := &bug{kind: kindLivelock, gs: snapshot(gs)}
	b.message = fmt.Sprintf("the goroutines went %d scheduling steps without changing shared state or reading a location they had not read, with no timer to wait for (livelock or starvation)", window)
	b.key = kindLivelock + ":" + siteKey(b.gs)
	return b
}

// failureBug is the bug of a schedule whose test failed through t.Error or
// t.Fatal in the test goroutine; output is what the schedule's test wrote
// (testoutput.go), known false when it could not be read.
//
//go:norace
func failureBug(at, output string, known bool) *bug {
	b := &bug{kind: kindFailure, message: "the test failed (t.Fail, or t.Error/t.Fatal with no message)", key: kindFailure, output: output, at: at}
	if !known {
		b.message = "the test failed (t.Error/t.Fatal: gosct could not read its output; gosct test -v prints the test binary's)"
	}
	if pos, msg, abs := lastReported(output); pos != "" {
		first := pos + ": " + msg
		b.message = "the test failed: " + first
		if strings.TrimSpace(output) == first {
			b.output = "" // the message says it all
		}
		// The place of the failed check: a shrunk schedule must fail
		// there too.
		b.key += ":" + pos
		if b.at == "" {
			// The reporting call was not seen (a goroutine testing
			// started, a library's own t, testify's interface): the
			// line testing printed is the user's, relative to the
			// package's directory; else testify's Error Trace names
			// the check.
			if p, err := filepath.Abs(pos[:strings.LastIndexByte(pos, ':')]); err == nil {
				if _, err := os.Stat(p); err == nil {
					b.at = p + pos[strings.LastIndexByte(pos, ':'):]
				}
			}
			if b.at == "" {
				b.at = abs
			}
		}
	}
	return b
}

// lastReported is the last line of a test's output that a reporting call
// wrote ("file_test.go:12: message"), as its position and message, ""
// when none: the output does not tell t.Log from t.Error, and the check
// that failed the test is most often the last thing it said (always, for
// t.Fatal). A report whose first line holds no message (testify's
// "file_test.go:12: " followed by "Error Trace:" and "Error:" lines) takes
// its message from its "Error:" line, and abs is the first position of
// its Error Trace (an absolute file:line); the positions of an Error Trace
// are not reports.
//
//go:norace
func lastReported(output string) (pos, msg, abs string) {
	lines := strings.Split(output, "\n")
	for k := len(lines) - 1; k >= 0; k-- {
		pos, msg, ok := reportLine(strings.TrimSpace(lines[k]))
		if !ok {
			continue
		}
		if msg == "" {
			for _, l := range lines[k+1:] {
				l = strings.TrimSpace(l)
				if after, ok := strings.CutPrefix(l, "Error Trace:"); ok && abs == "" {
					abs = strings.TrimSpace(after)
				}
				if after, ok := strings.CutPrefix(l, "Error:"); ok {
					msg = strings.TrimSpace(after)
					break
				}
			}
		}
		return pos, msg, abs
	}
	return "", "", ""
}

// reportLine splits a line a reporting call of package testing wrote,
// "file_test.go:12: message", into its position and message.
//
//go:norace
func reportLine(l string) (pos, msg string, ok bool) {
	i := strings.Index(l, ".go:")
	if i <= 0 || strings.ContainsAny(l[:i], " \t") {
		return "", "", false
	}
	j := i + len(".go:")
	k := j
	for k < len(l) && '0' <= l[k] && l[k] <= '9' {
		k++
	}
	if k == j || k == len(l) || l[k] != ':' {
		return "", "", false
	}
	return l[:k], strings.TrimSpace(l[k+1:]), true
}

//go:norace
func waitList(gs []gsnap) string {
	parts := make([]string, 0, len(gs))
	for _, g := range gs {
		w := g.waiting
		if strings.HasPrefix(g.state, gDetached.String()) {
			w = g.state
		}
		parts = append(parts, fmt.Sprintf("G%d (%s) %s", g.id, g.created, w))
	}
	return strings.Join(parts, "; ")
}

// siteKey identifies a set of goroutines by where they were created and
// where they stopped, for deduplicating bugs across schedules.
//
//go:norace
func siteKey(gs []gsnap) string {
	parts := make([]string, 0, len(gs))
	for _, g := range gs {
		parts = append(parts, g.created+"@"+firstFrame(g.stack))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// firstFrame is the file:line of the first frame of a filtered stack.
//
//go:norace
func firstFrame(stack string) string {
	for _, line := range strings.Split(stack, "\n") {
		if strings.HasPrefix(line, "\t") {
			f := strings.TrimSpace(line)
			if i := strings.LastIndex(f, " +0x"); i >= 0 {
				f = f[:i]
			}
			if i := strings.LastIndexByte(f, '/'); i >= 0 {
				f = f[i+1:]
			}
			return f
		}
	}
	return ""
}

// allStacks returns the stack of every goroutine, keyed by runtime id,
// with the frames of gosct's runtime and of Go's removed.
//
//go:norace
func allStacks() map[int64]stacks {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := make(map[int64]stacks)
	for _, block := range bytes.Split(buf, []byte("\n\n")) {
		s := string(block)
		if !strings.HasPrefix(s, "goroutine ") {
			continue
		}
		rest := s[len("goroutine "):]
		i := strings.IndexByte(rest, ' ')
		if i < 0 {
			continue
		}
		id, err := strconv.ParseInt(rest[:i], 10, 64)
		if err != nil {
			continue
		}
		out[id] = stacks{user: userStack(s), all: filterStack(s)}
	}
	return out
}

// stacks is a goroutine's stack as reports show it: user keeps the frames
// below the hook it stopped in (userStack), all every frame of user code.
type stacks struct{ user, all string }

// userStack keeps the frames of user code: function line + position line
// pairs whose function is not in gosct's runtime, Go's runtime or testing.
//
//go:norace
func userStack(s string) string {
	lines := strings.Split(s, "\n")
	// The frames from the top of the stack down to the hook the user's
	// code called are the runtime's own machinery (its lock, its hand-off),
	// whatever package they are in.
	for i, l := range lines {
		if strings.HasPrefix(l, selfPkg) {
			for i < len(lines) && (strings.HasPrefix(lines[i], selfPkg) || strings.HasPrefix(lines[i], "\t")) {
				i++
			}
			lines = lines[i:]
			break
		}
	}
	return filterLines(lines)
}

// filterStack keeps the frames of user code of a whole stack.
//
//go:norace
func filterStack(s string) string { return filterLines(strings.Split(s, "\n")) }

//go:norace
func filterLines(lines []string) string {
	var b strings.Builder
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if strings.HasPrefix(fn, "\t") || fn == "" || strings.HasPrefix(fn, "goroutine ") {
			continue
		}
		pos := lines[i+1]
		i++
		name := fn
		if j := strings.LastIndexByte(name, '('); j > 0 {
			name = name[:j]
		}
		name = strings.TrimPrefix(name, "created by ")
		if strings.HasPrefix(name, selfPkg) || strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "runtime/debug.") ||
			strings.HasPrefix(name, "testing.") || name == "panic" {
			continue
		}
		b.WriteString(fn)
		b.WriteByte('\n')
		b.WriteString(pos)
		b.WriteByte('\n')
	}
	return b.String()
}

// report renders the bug for people: where and what happened, then each
// goroutine involved with what it waits on and its stack. The first line
// is "file:line: kind: message" at the bug's user location (where), or
// "gosct: kind: message" when there is none.
//
//go:norace
func (b *bug) report() string {
	var s strings.Builder
	at := b.where()
	if at == "" {
		at = "gosct"
	}
	if b.timing != "" {
		// Says so first, and what it needs, on the first line.
		fmt.Fprintf(&s, "%s: %s, timing-dependent: %s (%s)\n", at, b.kind, b.message, b.timing)
	} else {
		fmt.Fprintf(&s, "%s: %s: %s\n", at, b.kind, b.message)
	}
	if b.output != "" {
		s.WriteString("\nthe schedule's test output:\n")
		for _, line := range strings.Split(b.output, "\n") {
			s.WriteString("    " + line + "\n")
		}
	}
	for _, g := range b.gs {
		fmt.Fprintf(&s, "\nG%d, created at %s, %s", g.id, g.created, g.state)
		if g.waiting != "" && !strings.HasPrefix(g.state, gDetached.String()) {
			fmt.Fprintf(&s, ", waiting on %s", g.waiting)
		}
		s.WriteString(":\n")
		for _, line := range strings.Split(strings.TrimRight(g.stack, "\n"), "\n") {
			if line != "" {
				s.WriteString("    " + strings.TrimSpace(line) + "\n")
			}
		}
	}
	if len(b.more) > 0 {
		fmt.Fprintf(&s, "\nalso in this schedule:\n")
		for _, m := range b.more {
			s.WriteString("    " + m + "\n")
		}
	}
	return s.String()
}

// uncontrolledAt says where a goroutine in uncontrolled code is: the
// innermost frame of its stack and, when it differs, the outermost frame
// of the package it was called from.
//
//go:norace
func (g gsnap) uncontrolledAt() string {
	at := firstFrame(g.stack)
	if at == "" {
		at = "?"
	}
	if g.waiting != "" {
		at += " [" + g.waiting + "]"
	}
	return at
}
