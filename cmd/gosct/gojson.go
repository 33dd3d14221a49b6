package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gosct/gosct/internal/wire"
)

// goJSON writes what `go test -json` writes (cmd/test2json's events:
// Action, Package, Test, Output, Elapsed, Time), so that the tools that
// read go test's stream (gotestsum, IDEs, CI test reporters) show gosct's
// results: `gosct test --json=go`.
//
// The mapping, decided for what those tools do with it:
//   - a test function is a test: pass when every schedule explored passed,
//     fail when one found a bug, skip when it was not explored (stopped
//     early: its few schedules prove nothing, as a skipped test);
//   - a schedule that found a bug is the failing subtest TestX/schedule_N
//     (the subtest the test binary really ran), its output the report,
//     starting with the clickable "file:line: kind: message";
//   - schedules that passed are not subtests of the stream: a test explored
//     under 1000 schedules would otherwise be 1000 tests to gotestsum's
//     count and 1000 nodes in an IDE's test tree, none of which can be run
//     by itself. The test's output says how many ran;
//   - gosct's own event (as --json prints it) goes along as an "attr"
//     event (Key "gosct") of the test or subtest it concerns, as
//     t.Attr's are, for programs that want both;
//   - warnings and errors are output of their test or package; an error
//     fails it (gosct's exit status 2), as does a nondeterministic
//     schedule (exit status 1).
//
// Packages run one after the other. There is no summary: go test's
// readers print their own, and take anything on stderr for an error.
type goJSON struct {
	w        io.Writer
	cwd      string
	strategy string
	seed     int64
	now      func() time.Time
	pkgs     map[string]*goPkg
}

type goPkg struct {
	start  time.Time
	tests  map[string]*goTest
	order  []string
	failed bool
	done   bool
}

type goTest struct {
	start  time.Time
	failed bool
	done   bool
}

// goEvent is test2json's event.
type goEvent struct {
	// ImportPath is set on go build's events (build-output, build-fail),
	// which share go test's stream.
	ImportPath  string   `json:"ImportPath,omitempty"`
	Time        string   `json:"Time,omitempty"`
	Action      string   `json:"Action"`
	Package     string   `json:"Package,omitempty"`
	Test        string   `json:"Test,omitempty"`
	Elapsed     *float64 `json:"Elapsed,omitempty"`
	Output      *string  `json:"Output,omitempty"`
	FailedBuild string   `json:"FailedBuild,omitempty"`
	Key         string   `json:"Key,omitempty"`
	Value       string   `json:"Value,omitempty"`
}

func newGoJSON(w io.Writer, cwd, strategy string, seed int64) *goJSON {
	return &goJSON{w: w, cwd: cwd, strategy: strategy, seed: seed, now: time.Now, pkgs: map[string]*goPkg{}}
}

func (g *goJSON) emit(ev goEvent) {
	if ev.Action != "build-output" && ev.Action != "build-fail" {
		ev.Time = g.now().Format(time.RFC3339Nano)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		panic(err) // strings and numbers
	}
	g.w.Write(append(b, '\n'))
}

// outputMax and attrLineMax are test2json's buffer sizes: it cuts an
// output line longer than outputMax bytes into events of at most that
// many, and reads the test binary's lines (an "=== ATTR" line among them)
// up to attrLineMax bytes, so that go test never writes a longer attr.
const (
	outputMax   = 1024
	attrLineMax = 4096
)

// output emits text as output events, one per line, as test2json does:
// a line too long for test2json's buffer in pieces, cut between runes.
func (g *goJSON) output(pkg, test, text string) {
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		if !strings.HasSuffix(line, "\n") {
			line += "\n"
		}
		for len(line) > 0 {
			n := len(line)
			if n > outputMax {
				n = runeCut(line[:outputMax])
			}
			l := line[:n]
			line = line[n:]
			g.emit(goEvent{Action: "output", Package: pkg, Test: test, Output: &l})
		}
	}
}

// runeCut is the length of s without an incomplete rune at its end.
func runeCut(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) && i > 0 {
				return i
			}
			break
		}
	}
	return len(s)
}

// pkg starts pkg's stream if it has not started.
func (g *goJSON) pkg(pkg string) *goPkg {
	p := g.pkgs[pkg]
	if p == nil {
		p = &goPkg{start: g.now(), tests: map[string]*goTest{}}
		g.pkgs[pkg] = p
		g.emit(goEvent{Action: "start", Package: pkg})
	}
	return p
}

// run starts a test (or subtest) if it has not started.
func (g *goJSON) run(pkg, test string) *goTest {
	p := g.pkg(pkg)
	t := p.tests[test]
	if t == nil {
		t = &goTest{start: g.now()}
		p.tests[test] = t
		p.order = append(p.order, test)
		g.emit(goEvent{Action: "run", Package: pkg, Test: test})
		g.output(pkg, test, "=== RUN   "+test+"\n")
	}
	return t
}

// end ends a started test with action (pass, fail, skip).
func (g *goJSON) end(pkg, test, action string, elapsed float64) {
	p := g.pkg(pkg)
	t := g.run(pkg, test)
	if t.done {
		return
	}
	t.done = true
	word := map[string]string{"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}[action]
	elapsed = float64(int64(elapsed*100+0.5)) / 100 // as test2json reads it from the line
	g.output(pkg, test, fmt.Sprintf("--- %s: %s (%.2fs)\n", word, test, elapsed))
	g.emit(goEvent{Action: action, Package: pkg, Test: test, Elapsed: &elapsed})
	if action == "fail" {
		p.failed = true
	}
}

// attr attaches gosct's own event v to test, its longest strings
// shortened if it would not fit the line test2json reads (no attr of go
// test is longer); it is left out if even that does not make it fit.
func (g *goJSON) attr(pkg, test string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	room := attrLineMax - len("\x16=== ATTR  "+test+" gosct \n")
	if len(b) > room {
		if b = shorten(b, room); b == nil {
			return
		}
	}
	g.emit(goEvent{Action: "attr", Package: pkg, Test: test, Key: "gosct", Value: string(b)})
}

// shorten halves the longest string of the JSON object b (ending it with
// "...") until b fits in room bytes; nil when it cannot.
func shorten(b []byte, room int) []byte {
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	for len(b) > room {
		long := ""
		for k, v := range m {
			if s, ok := v.(string); ok && (long == "" || len(s) > len(m[long].(string)) || len(s) == len(m[long].(string)) && k < long) {
				long = k
			}
		}
		s, _ := m[long].(string)
		if len(s) < 32 {
			return nil
		}
		m[long] = s[:runeCut(s[:len(s)/2])] + "..."
		if b, _ = json.Marshal(m); b == nil {
			return nil
		}
	}
	return b
}

// bug reports a bug as the failing subtest of its schedule. report is the
// report with its location relative to the working directory; own is the
// event --json would print.
func (g *goJSON) bug(pkg string, e wire.Event, regression, report string, dup bool, own any) {
	top := strings.SplitN(e.Test, "/", 2)[0]
	parent := g.run(pkg, top)
	parent.failed = true
	sub := e.Test + "/schedule_" + fmt.Sprint(e.Schedule)
	if regression != "" {
		// The replay of a kept trace: named after the file.
		sub = e.Test + "/replay_" + strings.NewReplacer(" ", "_", "/", "_").Replace(strings.TrimSuffix(filepath.Base(regression), ".json"))
	}
	g.run(pkg, sub)
	var b strings.Builder
	first, rest, _ := strings.Cut(strings.Trim(report, "\n"), "\n")
	if dup {
		first = fmt.Sprintf("%s (found again: reported above)", firstLine(report))
		rest = ""
	}
	if first == "" {
		first = e.Kind + ": " + e.Message
	}
	fmt.Fprintf(&b, "    %s\n", first)
	if rest != "" {
		b.WriteString(indent(strings.TrimLeft(rest, "\n"), "        "))
		b.WriteString("\n")
	}
	if e.Trace != "" {
		fmt.Fprintf(&b, "        trace:  %s\n        replay: %s\n", e.Trace, replayCommand(e.Trace))
	}
	g.output(pkg, sub, b.String())
	g.attr(pkg, sub, own)
	g.end(pkg, sub, "fail", 0)
}

// test reports the end of a test function's exploration.
func (g *goJSON) test(pkg string, e wire.Event, own any) {
	t := g.run(pkg, e.Test)
	line := fmt.Sprintf("    gosct: %d schedule%s in %s (%s/s)", e.Schedules, plural(e.Schedules), seconds(e.ElapsedS), rate(e.Schedules, e.ElapsedS))
	if e.Bugs > 0 {
		line += fmt.Sprintf(", %d bug%s", e.Bugs, plural(e.Bugs))
	} else {
		line += ", no bug"
	}
	line += fmt.Sprintf("; strategy %s, seed %d", g.strategy, g.seed)
	if e.Status != "" {
		line += "; " + e.Status
	}
	g.output(pkg, e.Test, line+"\n")
	g.attr(pkg, e.Test, own)
	switch {
	case e.Bugs > 0 || t.failed:
		g.end(pkg, e.Test, "fail", e.ElapsedS)
	case e.Outcome() == wire.OutcomeNotExplored:
		g.output(pkg, e.Test, fmt.Sprintf("    gosct: not explored (%s): stopped before its limits, its schedules prove nothing\n", e.Message))
		g.end(pkg, e.Test, "skip", e.ElapsedS)
	default:
		g.end(pkg, e.Test, "pass", e.ElapsedS)
	}
}

// message reports a warning, an error, a divergence or an information as
// output of its test, else of its package; it reports whether it found
// one (a message of no package goes elsewhere). An error fails the test
// or the package.
func (g *goJSON) message(kind, pkg, test, msg string) bool {
	if pkg == "" {
		return false
	}
	text := "gosct: " + label(kind) + msg + "\n"
	if kind == "error" {
		text = "gosct: error: " + msg + "\n"
	}
	if test != "" {
		top := strings.SplitN(test, "/", 2)[0]
		t := g.run(pkg, top)
		g.output(pkg, top, "    "+text)
		if kind == "error" {
			t.failed = true
		}
		return true
	}
	p := g.pkg(pkg)
	g.output(pkg, "", text)
	if kind == "error" {
		p.failed = true
	}
	return true
}

// nondeterministic reports a schedule whose two runs differed: its test
// fails (gosct's exit status is 1).
func (g *goJSON) nondeterministic(pkg string, e wire.Event, own any) {
	t := g.run(pkg, e.Test)
	t.failed = true
	g.output(pkg, e.Test, fmt.Sprintf("    gosct: schedule %d is not deterministic: %s\n", e.Schedule, e.Message))
	g.attr(pkg, e.Test, own)
}

// buildFailed reports a package whose test binary did not build, as go
// test does: go build's events, then the package's failure.
func (g *goJSON) buildFailed(pkg string, out []byte) {
	id := pkg + " [" + pkg + ".test]"
	g.emit(goEvent{Action: "build-output", ImportPath: id, Output: ptr("# " + id + "\n")})
	for _, line := range strings.SplitAfter(string(out), "\n") {
		if line != "" {
			g.emit(goEvent{Action: "build-output", ImportPath: id, Output: ptr(line)})
		}
	}
	g.emit(goEvent{Action: "build-fail", ImportPath: id})
	p := g.pkg(pkg)
	p.done = true
	g.output(pkg, "", "FAIL\t"+pkg+" [build failed]\n")
	el := 0.0
	g.emit(goEvent{Action: "fail", Package: pkg, Elapsed: &el, FailedBuild: id})
}

// pkgLine ends a package: the tests left open fail (the binary died in
// them), then go test's package line and its action.
func (g *goJSON) pkgLine(status, pkg, detail string) {
	p := g.pkg(pkg)
	if p.done {
		return
	}
	p.done = true
	for _, name := range p.order {
		if t := p.tests[name]; !t.done {
			g.end(pkg, name, "fail", g.now().Sub(t.start).Seconds())
		}
	}
	el := round3(g.now().Sub(p.start).Seconds())
	switch {
	case status == "?":
		g.output(pkg, "", fmt.Sprintf("?   \t%s\t%s\n", pkg, detail))
		el = 0
		g.emit(goEvent{Action: "skip", Package: pkg, Elapsed: &el})
	case status == "FAIL" || p.failed:
		g.output(pkg, "", "FAIL\n")
		g.output(pkg, "", fmt.Sprintf("FAIL\t%s\t%.3fs\n", pkg, el))
		g.emit(goEvent{Action: "fail", Package: pkg, Elapsed: &el})
	default:
		note := ""
		if i := strings.Index(detail, "["); i >= 0 {
			note = " " + detail[i:]
		}
		g.output(pkg, "", "PASS\n") // the test binary's last line, from which test2json takes the package's pass
		g.output(pkg, "", fmt.Sprintf("ok  \t%s\t%.3fs%s\n", pkg, el, note))
		g.emit(goEvent{Action: "pass", Package: pkg, Elapsed: &el})
	}
}

func ptr(s string) *string { return &s }
