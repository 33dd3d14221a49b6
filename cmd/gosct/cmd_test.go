package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/rewrite"
)

// useFakeRuntime makes the command "instrument" testdata/fakert, whose
// TestMain plays the runtime according to FAKE_SCENARIO.
func useFakeRuntime(t *testing.T, scenario string) (dir string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "fakert"))
	if err != nil {
		t.Fatal(err)
	}
	return useFakeRuntimeIn(t, dir, scenario)
}

// fakeRun is what testdata/fakert's TestMain recorded of its first run:
// the configuration the command passed, the binary's arguments and its
// working directory.
type fakeRun struct {
	Config map[string]any
	Args   []string
	Dir    string
}

// recordFakeRuns makes the fake runtime record its runs in a file, and
// returns a function that reads the first of them.
func recordFakeRuns(t *testing.T) (first func() fakeRun) {
	t.Helper()
	all := recordAllFakeRuns(t)
	return func() fakeRun {
		t.Helper()
		runs := all()
		if len(runs) == 0 {
			t.Fatal("the fake runtime recorded no run")
		}
		return runs[0]
	}
}

// recordAllFakeRuns is recordFakeRuns, returning a function that reads
// every run, in order.
func recordAllFakeRuns(t *testing.T) (all func() []fakeRun) {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "record")
	t.Setenv("FAKE_RECORD", rec)
	return func() []fakeRun {
		t.Helper()
		b, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		var runs []fakeRun
		for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var got fakeRun
			if err := json.Unmarshal(l, &got); err != nil {
				t.Fatal(err)
			}
			runs = append(runs, got)
		}
		return runs
	}
}

// useFakeTests gives the fake package the test functions tests, in the
// order its binary runs them (the rewriter lists them sorted), and makes
// the "crash" scenario die in each of crash whenever it runs.
func useFakeTests(t *testing.T, tests, crash []string) {
	t.Setenv("FAKE_TESTS", strings.Join(tests, ","))
	t.Setenv("FAKE_CRASH", strings.Join(crash, ","))
}

// useFakeRuntimeIn is useFakeRuntime with the fake package in dir.
func useFakeRuntimeIn(t *testing.T, dir, scenario string) string {
	t.Helper()
	old := instrument
	t.Cleanup(func() { instrument = old })
	instrument = func(ctx context.Context, o rewrite.Options) (*rewrite.Build, error) {
		if len(o.Patterns) == 1 && o.Patterns[0] == "./nothing" {
			return nil, &rewrite.UserError{Msg: "no package matches ./nothing"}
		}
		tests := []string{"TestA", "TestB"}
		if s := os.Getenv("FAKE_TESTS"); s != "" {
			tests = strings.Split(s, ",")
			sort.Strings(tests) // as the rewriter lists them
		}
		return &rewrite.Build{ModDir: dir, Packages: []*rewrite.Package{
			{ImportPath: "example.com/fakert", Dir: dir, Tests: tests},
			{ImportPath: "example.com/fakert/empty", Dir: dir},
		}}, nil
	}
	t.Setenv("FAKE_SCENARIO", scenario)
	return dir
}

func gosct(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("stdout line %q is not JSON: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// A search that ran out of schedules without a proof says so, on its line
// and in the totals: never "all passed", never "completed".
func TestCmdTestUnproved(t *testing.T) {
	useFakeRuntime(t, "unproved")
	code, out, errOut := gosct(t, "test", "--schedules", "25", "--strategy", "dfs", "./...")
	if code != exitOK {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{"gosct: TestA: searched to the end: 25 schedules; not a proof: it read the clock; no bug found",
		"gosct: 2 tests searched to the end of their search without a proof"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"all passed", "completed", "exhausted"} {
		if strings.Contains(out, bad) {
			t.Errorf("stdout says %q of searches that are no proof:\n%s", bad, out)
		}
	}
	_, js, _ := gosct(t, "test", "--schedules", "25", "--strategy", "dfs", "--json", "./...")
	var tests, summaries int
	for _, l := range jsonLines(t, js) {
		switch l["event"] {
		case "test":
			tests++
			if l["unproved"] != true || l["not_proof"] != "it read the clock" || l["exhausted"] != true {
				t.Errorf("test event %v: want exhausted, unproved, not_proof", l)
			}
		case "summary":
			summaries++
			if l["proved_tests"] != float64(0) || l["exhausted_tests"] != float64(2) {
				t.Errorf("summary %v: want 0 proved of 2 exhausted", l)
			}
		}
	}
	if tests != 2 || summaries != 1 {
		t.Errorf("%d test events, %d summaries:\n%s", tests, summaries, js)
	}
}

func TestCmdTestPass(t *testing.T) {
	useFakeRuntime(t, "pass")
	firstRun := recordFakeRuns(t)
	traces := t.TempDir()
	code, out, errOut := gosct(t, "test", "--schedules", "25", "--seed", "4", "--strategy", "dfs", "--trace-dir", traces, "./...", "--", "-short", "-timeout", "42s")
	if code != exitOK {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{"ok   example.com/fakert", "?    example.com/fakert/empty\t[no test files]",
		"50 schedules of 2 tests", "no bug", "seed 4", "systematic search completed for 2 of 2 tests",
		"gosct: TestA: done, all passed"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	got := firstRun()
	c := got.Config
	if c["mode"] != "explore" || c["strategy"] != "dfs" || c["seed"] != float64(4) || c["schedules"] != float64(25) ||
		c["trace_dir"] != packageTraceDir(traces, "example.com/fakert") || c["package"] != "example.com/fakert" {
		t.Errorf("config passed to the binary: %v", c)
	}
	args := strings.Join(got.Args, " ")
	for _, want := range []string{"-test.run=.", "-test.count=1", "-test.timeout=42s", "-test.short"} {
		if !strings.Contains(args, want) {
			t.Errorf("binary args %q lack %s", args, want)
		}
	}
	if filepath.Base(got.Dir) != "fakert" {
		t.Errorf("binary ran in %s, want the package directory", got.Dir)
	}
}

func TestCmdTestBugJSON(t *testing.T) {
	useFakeRuntime(t, "bug")
	traces := t.TempDir()
	code, out, errOut := gosct(t, "test", "--json", "--schedules", "10", "--seed", "1", "--trace-dir", traces, "./...")
	if code != exitBug {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	lines := jsonLines(t, out)
	var bugs, summaries []map[string]any
	for _, l := range lines {
		switch l["event"] {
		case "bug":
			bugs = append(bugs, l)
		case "summary":
			summaries = append(summaries, l)
		}
	}
	if len(bugs) != 1 || len(summaries) != 1 || lines[len(lines)-1]["event"] != "summary" {
		t.Fatalf("want one bug and a final summary, got %v", lines)
	}
	bug := bugs[0]
	for k, want := range map[string]any{"package": "example.com/fakert", "test": "TestB", "kind": "deadlock",
		"schedule": float64(7), "strategy": "pct", "trace": filepath.Join(packageTraceDir(traces, "example.com/fakert"), "TestB.json"), "message": "all goroutines are asleep"} {
		if bug[k] != want {
			t.Errorf("bug[%q] = %v, want %v", k, bug[k], want)
		}
	}
	s := summaries[0]
	if s["schedules"] != float64(20) || s["bugs"] != float64(1) || s["elapsed_s"] == nil || s["schedules_per_s"] != float64(20) {
		t.Errorf("summary %v", s)
	}
}

func TestCmdTestBugHuman(t *testing.T) {
	useFakeRuntime(t, "bug")
	traces := t.TempDir()
	code, out, _ := gosct(t, "test", "--trace-dir", traces, "--seed", "1", ".")
	if code != exitBug {
		t.Fatalf("exit %d, want 1", code)
	}
	trace := filepath.Join(packageTraceDir(traces, "example.com/fakert"), "TestB.json")
	for _, want := range []string{"--- BUG deadlock in TestB", "all goroutines are asleep", "goroutine 1 blocked on chan send",
		"trace:  " + trace, "replay: gosct replay " + trace, "FAIL example.com/fakert", "1 bug (1 distinct)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// The runtime writes the trace whole (its directory included, see
	// runtime's tests): the command leaves the file as it was.
	if tr, err := replay.Read(trace); err != nil || tr.Dir != "" {
		t.Errorf("the command rewrote the trace: %+v, %v", tr, err)
	}
}

// TestCmdTestNotExplored: a test stopped early (here at the step limit)
// is "not explored", in the summary and --json, and never counted as
// passed; it is no bug and no error.
func TestCmdTestNotExplored(t *testing.T) {
	useFakeRuntime(t, "too-long")
	code, out, _ := gosct(t, "test", "--trace-dir", t.TempDir(), "--schedules", "50", ".")
	if code != exitOK {
		t.Fatalf("exit %d, want 0", code)
	}
	for _, want := range []string{"[1 test not explored]", "gosct: 1 test not explored (stopped early): TestB (too long)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = gosct(t, "test", "--json", "--trace-dir", t.TempDir(), "--schedules", "50", ".")
	results := map[string]any{}
	var summary map[string]any
	for _, l := range jsonLines(t, out) {
		switch l["event"] {
		case "test":
			results[l["test"].(string)] = l["result"]
		case "summary":
			summary = l
		}
	}
	if results["TestA"] != "ok" || results["TestB"] != "not explored" {
		t.Errorf("results %v, want TestA ok and TestB not explored", results)
	}
	if summary["not_explored_tests"] != float64(1) || summary["tests"] != float64(2) {
		t.Errorf("summary %v", summary)
	}
}

// TestCmdTestSkip: -skip works as under go test, the schedule level
// that the runtime adds put in: a one-level pattern skips test functions
// (which then report nothing, and are not expected to), a deeper one
// reaches the user's subtests.
func TestCmdTestSkip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gosct test once per skip pattern (the whole suite runs it)")
	}
	useFakeRuntime(t, "pass")
	rec := filepath.Join(t.TempDir(), "record")
	t.Setenv("FAKE_RECORD", rec)
	code, out, errOut := gosct(t, "test", "--trace-dir", t.TempDir(), ".", "--", "-skip", "TestB")
	if code != exitOK || !strings.Contains(out, "of 1 test ") || errOut != "" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	code, _, errOut = gosct(t, "test", "--trace-dir", t.TempDir(), ".", "--", "-skip", "TestA/slow case")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d\nstderr:\n%s", code, errOut)
	}
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"-test.skip=TestB"`, `"-test.skip=TestA//slow case"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the test binary did not get %s:\n%s", want, b)
		}
	}
	if code, _, errOut := gosct(t, "test", ".", "--", "-skip", "(("); code != exitError || !strings.Contains(errOut, "bad -skip regexp") {
		t.Errorf("bad -skip: exit %d, %s", code, errOut)
	}
}

func TestCmdTestCrashIsAnError(t *testing.T) {
	useFakeRuntime(t, "crash")
	code, out, errOut := gosct(t, "test", "--trace-dir", t.TempDir(), ".")
	if code != exitError {
		t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "exited with status 2 in TestB (output above)") || !strings.Contains(out, "panic: runtime error: boom in TestB") {
		t.Errorf("crash not explained:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
}

// crashRun is what a --json run of the fake runtime's "crash" scenario
// reported: its tests' events by name, its errors, its summary.
type crashRun struct {
	code    int
	tests   map[string]int
	errors  []map[string]any
	summary map[string]any
	out     string
}

func gosctCrash(t *testing.T, args ...string) crashRun {
	t.Helper()
	code, out, errOut := gosct(t, append([]string{"test", "--json", "--trace-dir", t.TempDir()}, args...)...)
	c := crashRun{code: code, tests: map[string]int{}, out: out + errOut}
	for _, l := range jsonLines(t, out) {
		switch l["event"] {
		case "test":
			c.tests[l["test"].(string)]++
		case "error":
			c.errors = append(c.errors, l)
		case "summary":
			c.summary = l
		}
	}
	return c
}

// TestCmdTestCrashResumes: a binary that dies in the middle one of three
// tests loses nothing: the error names the test it died in (in the
// binary's order, not the sorted one), and the test after it runs in a
// fresh process, with what is left of the run budget, each test reported
// once in both JSON streams.
func TestCmdTestCrashResumes(t *testing.T) {
	useFakeRuntime(t, "crash")
	useFakeTests(t, []string{"TestC", "TestB", "TestA"}, []string{"TestB"})
	runs := recordAllFakeRuns(t)
	c := gosctCrash(t, ".")
	if c.code != exitError || len(c.errors) != 1 || c.tests["TestC"] != 1 || c.tests["TestA"] != 1 || len(c.tests) != 2 {
		t.Fatalf("exit %d, tests %v, errors %v\n%s", c.code, c.tests, c.errors, c.out)
	}
	if e := c.errors[0]; e["test"] != "TestB" || !strings.Contains(e["message"].(string), "exited with status 2 in TestB (output above); the 1 test after it runs again in a fresh process") {
		t.Errorf("error %v: want the crash in TestB, TestA run again", e)
	}
	if c.summary["tests"] != 2.0 || c.summary["errors"] != 1.0 {
		t.Errorf("summary %v: want 2 tests, 1 error", c.summary)
	}
	rs := runs()[len(runs())-2:]
	if !slices.Contains(rs[1].Args, "-test.run=^(TestA)$") {
		t.Errorf("the fresh process's arguments %v: want exactly TestA", rs[1].Args)
	}
	b0, b1 := rs[0].Config["run_budget_ns"].(float64), rs[1].Config["run_budget_ns"].(float64)
	if b1 <= 0 || b1 >= b0 || rs[1].Config["run_tests"] != 1.0 {
		t.Errorf("run budgets %v then %v, run_tests %v: want what is left for 1 test", b0, b1, rs[1].Config["run_tests"])
	}
	_, goStream, _ := gosct(t, "test", "--json=go", "--trace-dir", t.TempDir(), ".")
	checkTest2JSON(t, goStream)
	ends := map[string]string{}
	for _, l := range jsonLines(t, goStream) {
		if test, _ := l["Test"].(string); test != "" && (l["Action"] == "pass" || l["Action"] == "fail") {
			if ends[test] != "" {
				t.Errorf("%s ends twice in --json=go", test)
			}
			ends[test] = l["Action"].(string)
		}
	}
	if ends["TestC"] != "pass" || ends["TestB"] != "fail" || ends["TestA"] != "pass" {
		t.Errorf("--json=go ends %v: want TestC and TestA passed, TestB failed\n%s", ends, goStream)
	}
}

// TestCmdTestCrashNotResumed: a test --run leaves out is not run in a
// fresh process, and the tests of a binary that shuffles them (whose order
// -test.list does not give) are not placed: the error lists them all.
func TestCmdTestCrashNotResumed(t *testing.T) {
	useFakeRuntime(t, "crash")
	useFakeTests(t, []string{"TestC", "TestB", "TestA"}, []string{"TestB"})
	runs := recordAllFakeRuns(t)
	c := gosctCrash(t, "--run", "TestB|TestC", ".")
	if len(c.tests) != 1 || c.tests["TestC"] != 1 || len(c.errors) != 1 || c.errors[0]["test"] != "TestB" || len(runs()) != 1 {
		t.Errorf("--run TestB|TestC: tests %v, errors %v, %d runs: want TestC, the crash, no fresh process\n%s", c.tests, c.errors, len(runs()), c.out)
	}
	c = gosctCrash(t, ".", "--", "-shuffle", "on")
	if len(c.tests) != 1 || len(c.errors) != 1 || !strings.Contains(c.errors[0]["message"].(string), "exited with status 2 before reporting TestA, TestB") || len(runs()) != 2 {
		t.Errorf("-shuffle on: tests %v, errors %v, %d runs: want the tests not reported listed, no fresh process\n%s", c.tests, c.errors, len(runs()), c.out)
	}
}

// TestCmdTestCrashResumesTwice: a binary dying in two tests is run three
// times, each fresh process starting after the test the last one died in.
func TestCmdTestCrashResumesTwice(t *testing.T) {
	useFakeRuntime(t, "crash")
	useFakeTests(t, []string{"TestA", "TestB", "TestC", "TestD", "TestE"}, []string{"TestB", "TestD"})
	runs := recordAllFakeRuns(t)
	c := gosctCrash(t, ".")
	if c.code != exitError || len(c.tests) != 3 || c.tests["TestA"] != 1 || c.tests["TestC"] != 1 || c.tests["TestE"] != 1 {
		t.Fatalf("exit %d, tests %v: want TestA, TestC, TestE once each\n%s", c.code, c.tests, c.out)
	}
	if len(c.errors) != 2 || c.errors[0]["test"] != "TestB" || c.errors[1]["test"] != "TestD" ||
		!strings.Contains(c.errors[0]["message"].(string), "the 3 tests after it run again") {
		t.Errorf("errors %v: want crashes in TestB then TestD", c.errors)
	}
	if n := len(runs()); n != 3 {
		t.Errorf("%d runs of the binary, want 3", n)
	}
}

// TestCmdTestCrashResumeStops: a fresh process that dies before it
// reports a test (in its first test, or in TestMain) is not run again:
// the run ends, and the tests it did not report are the error.
func TestCmdTestCrashResumeStops(t *testing.T) {
	useFakeRuntime(t, "crash")
	useFakeTests(t, []string{"TestA", "TestB", "TestC", "TestD"}, []string{"TestB", "TestC"})
	runs := recordAllFakeRuns(t)
	c := gosctCrash(t, ".")
	if c.code != exitError || len(c.tests) != 1 || c.tests["TestA"] != 1 {
		t.Fatalf("exit %d, tests %v: want TestA only\n%s", c.code, c.tests, c.out)
	}
	if len(c.errors) != 2 || c.errors[0]["test"] != "TestB" || !strings.Contains(c.errors[1]["message"].(string), "exited with status 2 before reporting TestC, TestD") {
		t.Errorf("errors %v: want the crash in TestB, then TestC and TestD not reported", c.errors)
	}
	if n := len(runs()); n != 2 {
		t.Errorf("%d runs of the binary, want 2", n)
	}
}

func TestCmdTestFailureOutsideControl(t *testing.T) {
	useFakeRuntime(t, "fail-outside")
	code, out, errOut := gosct(t, "test", "--trace-dir", t.TempDir(), ".")
	if code != exitError || !strings.Contains(errOut, "outside the schedules gosct controls") || !strings.Contains(out, "--- FAIL: TestUninstrumented") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestCmdTestFailureInStoppedSchedule: a failure of the binary with a
// test stopped early is not said to be outside gosct's schedules.
func TestCmdTestFailureInStoppedSchedule(t *testing.T) {
	useFakeRuntime(t, "fail-stopped")
	code, out, errOut := gosct(t, "test", "--trace-dir", t.TempDir(), ".")
	if code != exitError || strings.Contains(errOut, "outside the schedules") || !strings.Contains(errOut, "gosct stopped TestB before the end (not explored)") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestCmdTestRunFilter(t *testing.T) {
	useFakeRuntime(t, "bug")
	code, out, _ := gosct(t, "test", "--json", "--trace-dir", t.TempDir(), "--run", "TestA$", ".")
	if code != exitOK {
		t.Fatalf("exit %d, want 0 (the buggy TestB is not selected)\n%s", code, out)
	}
	code, out, _ = gosct(t, "test", "--trace-dir", t.TempDir(), "--run", "Nothing", ".")
	if code != exitOK || !strings.Contains(out, "[no tests to run]") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestCmdTestInstrumentError(t *testing.T) {
	useFakeRuntime(t, "pass")
	code, _, errOut := gosct(t, "test", "--trace-dir", t.TempDir(), "./nothing")
	if code != exitError || !strings.Contains(errOut, "no package matches ./nothing") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestCmdTestBuildFailure(t *testing.T) {
	dir := useFakeRuntime(t, "pass")
	old := instrument
	instrument = func(ctx context.Context, o rewrite.Options) (*rewrite.Build, error) {
		return &rewrite.Build{ModDir: dir, Packages: []*rewrite.Package{
			{ImportPath: "example.com/fakert/missing", Dir: dir, Tests: []string{"TestA"}},
		}}, nil
	}
	defer func() { instrument = old }()
	code, out, errOut := gosct(t, "test", "--trace-dir", t.TempDir(), ".")
	if code != exitError || !strings.Contains(errOut, "build failed") || !strings.Contains(out, "[build failed]") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// The package does not exist: go test does not build it either.
	if !strings.Contains(errOut, "go test does not build it either") {
		t.Errorf("the message does not say whether go test builds the package:\n%s", errOut)
	}
}

func writeTrace(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "bug.json")
	err := replay.Write(p, &replay.Trace{Package: "example.com/fakert", Test: "TestB", Strategy: "pct", Seed: 5,
		Bug: &replay.Bug{Kind: "deadlock", Message: "all goroutines are asleep"}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCmdReplay(t *testing.T) {
	trace := writeTrace(t, t.TempDir())
	firstRun := recordFakeRuns(t)
	cases := []struct {
		scenario string
		args     []string
		code     int
		want     string
	}{
		{"replay-bug", nil, exitBug, "the trace's bug happened again"},
		{"pass", nil, exitOK, "ran to its end without the bug (the trace had deadlock: all goroutines are asleep)"},
		{"diverged", nil, exitError, "expected goroutine 2 at chan send q.go:4, got goroutine 1 at mutex lock q.go:9"},
		{"diverged", []string{"--continue", "--trace-dir", t.TempDir()}, exitOK, "no bug in the schedules explored from the diverged point"},
	}
	for _, c := range cases {
		useFakeRuntime(t, c.scenario)
		args := append(append([]string{"replay"}, c.args...), trace)
		code, out, errOut := gosct(t, args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%s %v: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s\nwant %q", c.scenario, c.args, code, c.code, out, errOut, c.want)
		}
	}
	got := firstRun()
	if got.Config["mode"] != "replay" || got.Config["trace"] != trace || got.Config["seed"] != float64(5) ||
		!strings.Contains(strings.Join(got.Args, " "), "-test.run=^TestB$") {
		t.Errorf("replay ran the binary with %v %v", got.Config, got.Args)
	}
}

func TestCmdReplayBadInput(t *testing.T) {
	useFakeRuntime(t, "pass")
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("garbage"), 0o644)
	other := filepath.Join(dir, "other.json")
	replay.Write(other, &replay.Trace{Package: "example.com/fakert", Test: "TestGone"})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", bad}, "is not a gosct trace: invalid JSON"},
		{[]string{"replay", filepath.Join(dir, "nope.json")}, "does not exist"},
		{[]string{"replay", other}, "has no test TestGone"},
		{[]string{"replay", "a.json", "b.json"}, "one trace at a time"},
		{[]string{"replay", "--bogus", "a.json"}, "unknown flag: --bogus"},
	} {
		code, _, errOut := gosct(t, c.args...)
		if code != exitError || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

func TestCmdTestRegressionTraces(t *testing.T) {
	// A copy of the fake package, to give it a testdata/gosct corpus.
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "fake_test.go"} {
		b, err := os.ReadFile(filepath.Join("testdata", "fakert", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	useFakeRuntimeIn(t, dir, "replay-bug")
	corpus := filepath.Join(dir, "testdata", "gosct")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTrace(t, corpus)
	code, out, errOut := gosct(t, "test", "--json", "--trace-dir", t.TempDir(), ".")
	if code != exitBug {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	var regression int
	for _, l := range jsonLines(t, out) {
		if l["event"] == "bug" && l["regression"] == filepath.Join("testdata", "gosct", "bug.json") {
			regression++
		}
	}
	if regression != 1 {
		t.Errorf("want one bug found by the regression trace:\n%s", out)
	}
}

func TestRunCommands(t *testing.T) {
	if code, out, _ := gosct(t, "--version"); code != exitOK || !strings.HasPrefix(out, "gosct v") {
		t.Errorf("--version: %d %q", code, out)
	}
	if code, _, errOut := gosct(t, "tset"); code != exitError || !strings.Contains(errOut, `unknown command "tset"`) {
		t.Errorf("unknown command: %d %q", code, errOut)
	}
	if code, _, _ := gosct(t); code != exitError {
		t.Errorf("no command: %d", code)
	}
	if code, out, _ := gosct(t, "test", "--help"); code != exitOK || !strings.Contains(out, "--keep-going") {
		t.Errorf("test --help: %d %q", code, out)
	}
}

func TestCmdReplayUsesTraceDir(t *testing.T) {
	dir := useFakeRuntime(t, "replay-bug")
	p := filepath.Join(t.TempDir(), "bug.json")
	replay.Write(p, &replay.Trace{Package: "example.com/fakert", Dir: dir, Test: "TestB"})
	var calls []rewrite.Options
	inner := instrument
	instrument = func(ctx context.Context, o rewrite.Options) (*rewrite.Build, error) {
		calls = append(calls, o)
		return inner(ctx, o)
	}
	code, out, errOut := gosct(t, "replay", p)
	if code != exitBug {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if len(calls) != 1 || calls[0].Dir != dir || calls[0].Patterns[0] != "." {
		t.Errorf("instrumented %+v, want the trace's directory", calls)
	}
	if !strings.Contains(out, "replay: gosct replay "+p) {
		t.Errorf("the report does not point at the replayed trace:\n%s", out)
	}
}

// TestCmdTestRunBudget: the command gives the test binary what is left of
// the run budget and the tests left to share it; --run-budget 0, none.
func TestCmdTestRunBudget(t *testing.T) {
	useFakeRuntime(t, "pass")
	for _, c := range []struct {
		flag       string
		budget     float64
		tests      float64
		wantAbsent bool
	}{
		{"90s", 90e9, 2, false},
		{"0", 0, 0, true},
	} {
		firstRun := recordFakeRuns(t)
		if code, out, errOut := gosct(t, "test", "--run-budget", c.flag, "--trace-dir", t.TempDir(), "."); code != exitOK {
			t.Fatalf("--run-budget %s: exit %d\nstdout:\n%s\nstderr:\n%s", c.flag, code, out, errOut)
		}
		got := firstRun()
		budget, hasBudget := got.Config["run_budget_ns"]
		tests, hasTests := got.Config["run_tests"]
		if c.wantAbsent {
			if hasBudget || hasTests {
				t.Errorf("--run-budget 0: config %v, want no run budget", got.Config)
			}
			continue
		}
		if budget != c.budget || tests != c.tests {
			t.Errorf("--run-budget %s: run_budget_ns %v, run_tests %v; want %v over %v tests", c.flag, budget, tests, c.budget, c.tests)
		}
	}
}

// TestCmdTestSaturated: a test the saturation rule stopped reports the
// schedules it ran and where its coverage saturated, on its line, in the
// totals and in --json: never "passed", "exhausted" or "completed".
func TestCmdTestSaturated(t *testing.T) {
	useFakeRuntime(t, "saturated")
	code, out, errOut := gosct(t, "test", "--verbose", "--trace-dir", t.TempDir(), "./...")
	if code != exitOK {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{"=== TestA: 700 schedules", "stopped: coverage saturated after schedule 400",
		"gosct: 2 tests stopped when their coverage saturated", "not a proof"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"passed", "completed", "exhausted"} {
		if strings.Contains(out, bad) {
			t.Errorf("stdout says %q of tests stopped saturated:\n%s", bad, out)
		}
	}
	_, js, _ := gosct(t, "test", "--json", "--trace-dir", t.TempDir(), "./...")
	var tests int
	for _, l := range jsonLines(t, js) {
		switch l["event"] {
		case "test":
			tests++
			if l["saturated_after"] != float64(400) || l["exhausted"] != false || l["result"] != "ok" {
				t.Errorf("test event %v: want saturated after 400, not exhausted, result ok", l)
			}
		case "summary":
			if l["saturated_tests"] != float64(2) || l["exhausted_tests"] != float64(0) || l["proved_tests"] != float64(0) {
				t.Errorf("summary %v: want 2 saturated, none exhausted or proved", l)
			}
		}
	}
	if tests != 2 {
		t.Errorf("%d test events, want 2:\n%s", tests, js)
	}
}

// TestCmdTestSaturateFlag: the command asks the runtime for the saturation
// rule in a default run, not when --schedules or another strategy says
// what to run, unless --saturate says so.
func TestCmdTestSaturateFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gosct test once per flag case (the whole suite runs it)")
	}
	useFakeRuntime(t, "pass")
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"--schedules", "50"}, false},
		{[]string{"--schedules", "50", "--saturate"}, true},
		{[]string{"--strategy", "random"}, false},
		{[]string{"--strategy", "portfolio"}, true},
		{[]string{"--saturate=false"}, false},
	} {
		firstRun := recordFakeRuns(t)
		args := append(append([]string{"test", "--trace-dir", t.TempDir()}, c.args...), ".")
		if code, out, errOut := gosct(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", c.args, code, out, errOut)
		}
		got := firstRun()
		if on := got.Config["saturate"] == true; on != c.want {
			t.Errorf("%v: saturate %v, want %v", c.args, on, c.want)
		}
	}
}
