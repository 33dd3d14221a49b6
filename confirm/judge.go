package confirm

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gosct/gosct/replay"
)

// Telling whether a run of go test failed the same way as the trace's
// bug: the same kind, at the same place. A nonzero exit is never enough.
//
//   - deadlock: go test's -timeout fired ("panic: test timed out", with
//     every goroutine's stack), Go saw every goroutine asleep, or the
//     leak check found the goroutines left behind; and every goroutine
//     gosct found blocked stands in the dump at the line gosct saw it.
//   - leak: the check inserted in the test found goroutines still
//     blocked, after a grace, where gosct saw them leak.
//   - panic: "panic: VALUE" with the value gosct saw, the panic's line
//     in the dump.
//   - failure: "--- FAIL" and the failing check's "file.go:12: " line.
//   - race: a "WARNING: DATA RACE" of go test -race naming both
//     accesses' lines.

// expect is what a run must show to fail the same way.
type expect struct {
	kind string
	// at are positions that must all appear, "/file.go:12" (base name
	// with a slash: dumps print absolute paths) or "file.go:12: " for
	// a failure's line.
	at []string
	// text must appear too (a panic's value, "" for none).
	text string
	// leakCheck: the bug is seen by the check inserted in the test.
	leakCheck bool
	// leaked are the positions the leak check looks for.
	leaked []string
}

// describe is the expectation in words, for the report.
func (x expect) describe() string {
	switch x.kind {
	case "deadlock":
		return "a deadlock (go test -timeout's goroutine dump, or goroutines left blocked) with goroutines blocked at " + strings.Join(trimSlash(x.at), ", ")
	case "leak":
		return "goroutines still blocked at " + strings.Join(trimSlash(x.at), ", ") + " after the test returned"
	case "panic":
		return fmt.Sprintf("panic: %s at %s", x.text, strings.Join(trimSlash(x.at), ", "))
	case "failure":
		return "the test failing at " + strings.TrimSuffix(strings.Join(x.at, ", "), ": ")
	case "race":
		return "a data race between " + strings.Join(trimSlash(x.at), " and ")
	}
	return x.kind
}

func trimSlash(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.TrimPrefix(p, "/")
	}
	return out
}

var posRe = regexp.MustCompile(`[A-Za-z0-9_.\-]+\.go:[0-9]+`)

// stackFrames reads a stack as gosct's reports print one ("fn(args)",
// then "\tfile:line +0x.."): each frame's function and "file:line",
// innermost first.
func stackFrames(stack string) (fns, poss []string) {
	fn := ""
	for _, l := range strings.Split(stack, "\n") {
		if !strings.HasPrefix(l, "\t") {
			fn = l
			continue
		}
		l = strings.TrimSpace(l)
		if i := strings.LastIndex(l, " +0x"); i >= 0 {
			l = l[:i]
		}
		fns, poss = append(fns, fn), append(poss, l)
	}
	return fns, poss
}

// innermost is the position of stack's innermost frame, "" for none.
func innermost(stack string) string {
	if _, poss := stackFrames(stack); len(poss) > 0 {
		return poss[0]
	}
	return ""
}

// ownFrame is the position ("file.go:12") of the innermost frame of stack
// in package pkg or its external test package, else of its innermost
// frame; "" for none.
func ownFrame(stack, pkg string) string {
	fns, poss := stackFrames(stack)
	for i, fn := range fns {
		if pkg != "" && (strings.HasPrefix(fn, pkg+".") || strings.HasPrefix(fn, pkg+"_test.")) {
			return posRe.FindString(baseName(poss[i]))
		}
	}
	if len(poss) > 0 {
		return posRe.FindString(baseName(poss[0]))
	}
	return ""
}

// expectation derives what the trace's bug looks like under go test; an
// error when go test cannot show it.
func expectation(t *replay.Trace) (expect, error) {
	b := t.Bug
	if b == nil {
		return expect{}, fmt.Errorf("the trace records no bug")
	}
	x := expect{kind: b.Kind}
	switch b.Kind {
	case "deadlock", "leak":
		for _, g := range b.Goroutines {
			if g.State != "blocked" && b.Kind == "deadlock" {
				continue
			}
			if p := innermost(g.Stack); p != "" {
				x.leaked = appendNew(x.leaked, p)
				x.at = appendNew(x.at, "/"+baseName(p))
			}
		}
		if len(x.at) == 0 {
			return x, fmt.Errorf("the trace names no goroutine's position")
		}
		// A deadlock of the test goroutine hangs go test until its
		// timeout; one of other goroutines only, the test returns and
		// leaves them behind: the leak check sees them.
		x.leakCheck = true
		for _, g := range b.Goroutines {
			if b.Kind == "deadlock" && g.State == "blocked" && g.Created == "test goroutine" {
				x.leakCheck = false
			}
		}
	case "panic":
		msg := firstLine(b.Message)
		if _, v, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(msg, "panic in ") {
			x.text = v
		} else {
			return x, fmt.Errorf("the panic's value is not recorded")
		}
		for _, g := range b.Goroutines {
			if p := innermost(g.Stack); p != "" {
				x.at = append(x.at, "/"+baseName(p))
				break
			}
		}
	case "failure":
		msg := firstLine(b.Message)
		v, ok := strings.CutPrefix(msg, "the test failed: ")
		p := posRe.FindString(v)
		if strings.HasPrefix(msg, "t.FailNow (t.Fatal...) called from goroutine") && len(b.Goroutines) > 0 {
			// The goroutine's stack as it exited holds the check
			// (testify's require, a t.Fatal): go test prints its line.
			p, ok = ownFrame(b.Goroutines[0].Stack, t.Package), true
			v = p
		}
		if !ok || p == "" || !strings.HasPrefix(v, p) {
			return x, fmt.Errorf("the failing check's line is not recorded (%s)", msg)
		}
		x.at = []string{p + ": "}
	case "race":
		for _, m := range regexp.MustCompile(` at ([A-Za-z0-9_.\-]+\.go:[0-9]+)`).FindAllStringSubmatch(firstLine(b.Message), -1) {
			x.at = appendNew(x.at, "/"+m[1])
		}
		if len(x.at) == 0 {
			return x, fmt.Errorf("the racing accesses' lines are not recorded")
		}
	default:
		return x, fmt.Errorf("gosct confirm does not check a %s under go test", b.Kind)
	}
	return x, nil
}

func appendNew(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// verdict is what one run of go test showed.
type verdict struct {
	same bool
	// other is the first line of another failure, "" when the run passed.
	other string
}

// judge reads a run's output.
func (x expect) judge(out string, exitOK bool) verdict {
	has := func(s string, ps []string) bool {
		for _, p := range ps {
			if !containsPos(s, p) {
				return false
			}
		}
		return true
	}
	switch x.kind {
	case "deadlock":
		for _, marker := range []string{"panic: test timed out", "fatal error: all goroutines are asleep", "gosct confirm: leak:"} {
			if i := strings.Index(out, marker); i >= 0 && has(out[i:], x.at) {
				return verdict{same: true}
			}
		}
	case "leak":
		if i := strings.Index(out, "gosct confirm: leak:"); i >= 0 {
			return verdict{same: true}
		}
	case "panic":
		if i := strings.Index(out, "panic: "+x.text); i >= 0 && has(out[i:], x.at) {
			return verdict{same: true}
		}
		if i := strings.Index(out, "fatal error: "+x.text); i >= 0 && has(out[i:], x.at) {
			return verdict{same: true}
		}
	case "failure":
		if strings.Contains(out, "--- FAIL") && has(out, x.at) {
			return verdict{same: true}
		}
	case "race":
		for _, r := range strings.Split(out, "WARNING: DATA RACE")[1:] {
			r, _, _ = strings.Cut(r, "==================")
			if has(r, x.at) {
				return verdict{same: true}
			}
		}
	}
	if exitOK {
		return verdict{}
	}
	return verdict{other: otherFailure(out)}
}

// containsPos reports whether out names position p as a dump or a test's
// output does ("/file.go:12 +0x..", "/file.go:12\n", "file.go:12: ").
func containsPos(out, p string) bool {
	if strings.HasSuffix(p, ": ") {
		return strings.Contains(out, " "+p) || strings.Contains(out, "\t"+p) || strings.HasPrefix(out, p)
	}
	for i := 0; ; {
		j := strings.Index(out[i:], p)
		if j < 0 {
			return false
		}
		k := i + j + len(p)
		if k == len(out) || out[k] == ' ' || out[k] == '\n' {
			return true
		}
		i = k
	}
}

// otherFailure is a short description of a failed run's output.
func otherFailure(out string) string {
	for _, marker := range []string{"panic: ", "fatal error: ", "WARNING: DATA RACE", "gosct confirm: leak:"} {
		if i := strings.Index(out, marker); i >= 0 {
			return firstLine(out[i:])
		}
	}
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if posRe.MatchString(l) && strings.Contains(l, ".go:") && !strings.HasPrefix(l, "---") {
			return l
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" && l != "FAIL" && !strings.HasPrefix(l, "---") {
			return l
		}
	}
	return "failed"
}
