package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/rewrite"
)

// A reporter writing go test's stream into a buffer, with a fixed clock.
func goJSONReporter() (*reporter, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	r := newReporter(&out, &errOut, false, false, "dfs", 7)
	r.cwd = "/m"
	r.gojson = newGoJSON(&out, r.cwd, "dfs", 7)
	r.gojson.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	return r, &out, &errOut
}

// TestGoJSONStream: each case of gosct's results as go test reports the
// like: a bug as a failing schedule subtest with the report, a regression
// trace's bug as a subtest named after the file, a test stopped early as
// skipped, an error as a failure, a package that did not build as go
// test's build events.
func TestGoJSONStream(t *testing.T) {
	r, out, errOut := goJSONReporter()
	r.pkgStart("example.com/m/a")
	r.bug("example.com/m/a", wire.Event{Event: "bug", Test: "TestA", Kind: "deadlock", Schedule: 3, Trace: "/t/a.json",
		Pos: "/m/a/a.go:9", Report: "/m/a/a.go:9: deadlock: all blocked\n\nG1, created at a.go:8:\n    a.go:9\n", Message: "all blocked"}, "testdata/gosct/dl.json")
	r.bug("example.com/m/a", wire.Event{Event: "bug", Test: "TestA", Kind: "deadlock", Schedule: 5, Trace: "/t/b.json",
		Pos: "/m/a/a.go:9", Report: "/m/a/a.go:9: deadlock: all blocked\n", Message: "all blocked", Key: "k"}, "")
	r.test("example.com/m/a", wire.Event{Event: "test", Test: "TestA", Schedules: 5, Bugs: 1, ElapsedS: 0.5})
	r.test("example.com/m/a", wire.Event{Event: "test", Test: "TestLong", Schedules: 1, ElapsedS: 0.1, Message: wire.StopTooLong})
	r.message("error", "example.com/m/a", "TestCrash", "", "the test binary exited with status 2")
	r.test("example.com/m/a", wire.Event{Event: "test", Test: "TestOK", Schedules: 100, ElapsedS: 0.2})
	r.message("warning", "example.com/m/a", "", "", "a warning of the package")
	r.pkgLine("FAIL", "example.com/m/a", "1s [1 bug]")
	r.buildFailed("example.com/m/b", []byte("b/b.go:3:1: syntax error\n"), "build failed: exit status 1")
	r.pkgLine("?", "example.com/m/c", "[no test files]")
	r.summary()

	ends, outputs := checkGoStream(t, out.String())
	checkTest2JSON(t, out.String())
	for k, want := range map[string]string{
		"example.com/m/a TestA":            "fail",
		"example.com/m/a TestA/replay_dl":  "fail",
		"example.com/m/a TestA/schedule_5": "fail",
		"example.com/m/a TestLong":         "skip",
		"example.com/m/a TestCrash":        "fail",
		"example.com/m/a TestOK":           "pass",
		"example.com/m/a ":                 "fail",
		"example.com/m/b ":                 "fail",
		"example.com/m/c ":                 "skip",
	} {
		if ends[k] != want {
			t.Errorf("%q ended %q, want %q", k, ends[k], want)
		}
	}
	for k, want := range map[string]string{
		"example.com/m/a TestA/replay_dl":  "    a/a.go:9: deadlock: all blocked\n        G1, created at a.go:8:\n            a.go:9\n        trace:  /t/a.json\n        replay: gosct replay /t/a.json\n--- FAIL: TestA/replay_dl (0.00s)\n",
		"example.com/m/a TestA/schedule_5": "=== RUN   TestA/schedule_5\n    a/a.go:9: deadlock: all blocked\n",
		"example.com/m/a TestLong":         "not explored (too long)",
		"example.com/m/a TestOK":           "    gosct: 100 schedules in 200ms (500/s), no bug; strategy dfs, seed 7\n--- PASS: TestOK (0.20s)\n",
		"example.com/m/a TestCrash":        "    gosct: error: the test binary exited with status 2\n",
		"example.com/m/b ":                 "FAIL\texample.com/m/b [build failed]\n",
		"example.com/m/c ":                 "?   \texample.com/m/c\t[no test files]\n",
		"example.com/m/a ":                 "gosct: warning: a warning of the package\nFAIL\nFAIL\texample.com/m/a\t0.000s\n",
	} {
		if !strings.Contains(outputs[k], want) {
			t.Errorf("output of %q lacks %q:\n%s", k, want, outputs[k])
		}
	}
	if !strings.Contains(out.String(), `{"ImportPath":"example.com/m/b [example.com/m/b.test]","Action":"build-output","Output":"b/b.go:3:1: syntax error\n"}`) ||
		!strings.Contains(out.String(), `"FailedBuild":"example.com/m/b [example.com/m/b.test]"`) {
		t.Errorf("no build events for example.com/m/b:\n%s", out)
	}
	if !strings.Contains(out.String(), `"Action":"attr","Package":"example.com/m/a","Test":"TestA/schedule_5","Key":"gosct","Value":"{\"event\":\"bug\"`) {
		t.Errorf("no attr with gosct's event:\n%s", out)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr: %s", errOut)
	}
}

// TestGoJSONLongLines: lines longer than test2json's buffer come in the
// pieces test2json makes of them (cut between runes), and gosct's event
// is shortened to fit the longest attr line go test can carry, so that
// the stream is still what Go's test2json writes.
func TestGoJSONLongLines(t *testing.T) {
	r, out, _ := goJSONReporter()
	long := strings.Repeat("G1 (a.go:8) mutex lock (mutex held by G2, é); ", 60)
	r.pkgStart("example.com/m/a")
	r.bug("example.com/m/a", wire.Event{Event: "bug", Test: "TestA", Kind: "deadlock", Schedule: 3, Trace: "/t/a.json",
		Pos: "/m/a/a.go:9", Report: "/m/a/a.go:9: deadlock: " + long + "\n", Message: long, Key: strings.Repeat("deadlock:a.go:9,", 300)}, "")
	r.test("example.com/m/a", wire.Event{Event: "test", Test: "TestA", Schedules: 3, Bugs: 1, ElapsedS: 0.5})
	r.pkgLine("FAIL", "example.com/m/a", "1s")
	r.test("example.com/m/b", wire.Event{Event: "test", Test: "TestB", Schedules: 3, ElapsedS: 0.5, Status: long})
	r.pkgLine("ok", "example.com/m/b", "1s")

	checkTest2JSON(t, out.String())
	_, outputs := checkGoStream(t, out.String())
	if !strings.Contains(outputs["example.com/m/a TestA/schedule_3"], "    a/a.go:9: deadlock: "+long+"\n") {
		t.Errorf("the long line is not whole once its pieces are joined:\n%s", outputs["example.com/m/a TestA/schedule_3"])
	}
	attrs := 0
	for _, l := range strings.Split(out.String(), "\n") {
		var e goEvent
		if json.Unmarshal([]byte(l), &e) == nil && e.Action == "attr" {
			attrs++
			var own map[string]any
			if err := json.Unmarshal([]byte(e.Value), &own); err != nil || len("\x16=== ATTR  "+e.Test+" gosct "+e.Value+"\n") > 4096 {
				t.Errorf("attr of %s: %d bytes (%v)", e.Test, len(e.Value), err)
			}
			if own["event"] == "bug" && (own["report"] != nil || !strings.HasSuffix(own["key"].(string), "...")) {
				t.Errorf("attr of the bug: want no report (it is the output) and the key shortened: %s", e.Value)
			}
		}
	}
	if attrs != 3 {
		t.Errorf("%d attr events, want 3", attrs)
	}
}

func TestAnnotationsGitHub(t *testing.T) {
	var out bytes.Buffer
	a, err := newAnnotator([]annotationSpec{{format: "github"}}, &out, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	a.bug("example.com/m/a", wire.Event{Test: "TestA", Kind: "race", Schedule: 2, Pos: "/ws/a/a.go:12", Trace: "/ws/traces/a,b.json",
		Key: "race:a.go:12"}, "a/a.go:12: race: data race on 0x1: 50% of writes\nmore")
	a.bug("example.com/m/a", wire.Event{Test: "TestB", Kind: "leak", Schedule: 1, Pos: "/elsewhere/x.go:3", Message: "leaked"}, "")
	want := "::error file=a/a.go,line=12,title=gosct%3A race in TestA::data race on 0x1: 50%25 of writes%0A%0ATestA (package example.com/m/a), schedule 2%0Areplay: gosct replay traces/a,b.json\n" +
		"::error file=/elsewhere/x.go,line=3,title=gosct%3A leak in TestB::leaked%0A%0ATestB (package example.com/m/a), schedule 1\n"
	if out.String() != want {
		t.Errorf("annotations:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestCoverageText: the report a person reads, from the rewriter's points
// and the runtime's events.
func TestCoverageText(t *testing.T) {
	c := newCoverageReport("cov.txt", "/m", true)
	c.addPackage(&rewrite.Package{ImportPath: "example.com/m/a", Points: []rewrite.Point{
		{File: "/m/a/a.go", Line: 5, Op: "mutex lock"}, {File: "/m/a/a.go", Line: 6, Op: "write"},
		{File: "/m/a/a.go", Line: 9, Op: "mutex lock"}, {File: "/m/a/a.go", Line: 20, Op: "chan send"},
	}})
	cov := &wire.Coverage{Points: []wire.CoveredPoint{
		{Pos: "/m/a/a.go:5", Op: "mutex lock", Schedules: 4}, {Pos: "/m/a/a.go:9", Op: "mutex lock", Schedules: 3},
		{Pos: "/m/a/a.go:6", Op: "write", Schedules: 4}, {Pos: "/m/a/a.go:30", Op: "context cancel", Schedules: 1},
	}, Pairs: []wire.CoveredPair{{A: 0, B: 1, Schedules: 2}, {A: 1, B: 0, Schedules: 1}, {A: 2, B: 2, Schedules: 4}, {A: 0, B: 2, Schedules: 3}}}
	c.add("example.com/m/a", wire.Event{Test: "TestA", Coverage: cov})
	c.testDone("example.com/m/a", wire.Event{Test: "TestA", Schedules: 4})
	c.testDone("example.com/m/a", wire.Event{Test: "TestB", Schedules: 1, Message: "too long"})
	got := c.text("Run: gosct test --coverage cov.txt ./a.")
	for _, want := range []string{
		"3 of 4 scheduling points reached (75%); 3 pairs of conflicting points, 2 seen in both orders.",
		"== package example.com/m/a: 3 of 4 scheduling points reached (75%)\n   reached by no test:\n     a/a.go:20                        chan send\n",
		"-- TestA: 4 schedules; 3 of the package's 4 points reached (75%); 3 pairs of conflicting points, 2 in both orders\n",
		"     a/a.go:5                         mutex lock              4\n",
		"     a/a.go:30                        context cancel          1  (outside the package's points",
		"     a/a.go:5 mutex lock / a/a.go:9 mutex lock: 2, 1\n",
		"     a/a.go:5 mutex lock / a/a.go:6 write: 3, 0   <- one order only\n",
		"     a/a.go:6 write, in two goroutines: 4\n",
		"-- TestB: 1 schedule (not explored); no coverage recorded",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if s := c.summary(); s != "coverage: 3 of 4 scheduling points reached (75%), 3 pairs of conflicting points (2 in both orders); report in cov.txt" {
		t.Errorf("summary %q", s)
	}
}

func TestRelLocation(t *testing.T) {
	base := filepath.FromSlash("/home/u/mod")
	for pos, want := range map[string]string{
		"/home/u/mod/a/b.go:12": "a/b.go:12",
		"/home/u/other/x.go:3":  "/home/u/other/x.go:3",
		"/home/u/modx/x.go:3":   "/home/u/modx/x.go:3",
		"nonsense":              "",
	} {
		if got := relLocation(base, pos).String(); got != want {
			t.Errorf("relLocation(%q) = %q, want %q", pos, got, want)
		}
	}
	if got := withLocation("/home/u/mod/a.go:3: leak: x\nrest", "/home/u/mod/a.go:3", relLocation(base, "/home/u/mod/a.go:3")); got != "a.go:3: leak: x\nrest" {
		t.Errorf("withLocation: %q", got)
	}
}
