package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The end-to-end tests build the gosct binary and drive it like a user over
// the fixture module testdata/e2emod (a lock-order deadlock, correct
// programs, a package that does not compile) and, when present, the
// testprogs corpus. They need the rewriter and the runtime to work; -short
// skips them.

var (
	gosctBinOnce sync.Once
	gosctBin     string
	gosctBinErr  error
)

// gosctBinary builds the command once per test process.
func gosctBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: builds gosct and instrumented tests")
	}
	gosctBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gosct-e2e-")
		if err != nil {
			gosctBinErr = err
			return
		}
		gosctBin = filepath.Join(dir, "gosct")
		out, err := exec.Command("go", "build", "-o", gosctBin, ".").CombinedOutput()
		if err != nil {
			gosctBinErr = &buildError{string(out)}
		}
	})
	if gosctBinErr != nil {
		t.Skipf("cannot build gosct (is the rewrite package complete?): %v", gosctBinErr)
	}
	return gosctBin
}

type buildError struct{ out string }

func (e *buildError) Error() string { return e.out }

// e2eResult is one run of the binary.
type e2eResult struct {
	code           int
	stdout, stderr string
}

func runGosct(t *testing.T, dir string, args ...string) e2eResult {
	t.Helper()
	cmd := exec.Command(gosctBinary(t), args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	r := e2eResult{stdout: o.String(), stderr: e.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("gosct %v: %v", args, err)
		}
		r.code = ee.ExitCode()
	}
	return r
}

func (r e2eResult) String() string {
	return "exit " + itoa(r.code) + "\nstdout:\n" + r.stdout + "\nstderr:\n" + r.stderr
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func fixtureDir(t *testing.T) string {
	d, err := filepath.Abs(filepath.Join("testdata", "e2emod"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// bugEvents returns the "bug" objects of --json output, and checks that the
// last line is the summary.
func bugEvents(t *testing.T, r e2eResult) []map[string]any {
	t.Helper()
	lines := jsonLines(t, r.stdout)
	if len(lines) == 0 || lines[len(lines)-1]["event"] != "summary" {
		t.Fatalf("--json output does not end with a summary:\n%s", r)
	}
	var bugs []map[string]any
	for _, l := range lines {
		if l["event"] == "bug" {
			bugs = append(bugs, l)
		}
	}
	return bugs
}

func TestE2EBugFoundAndReplayed(t *testing.T) {
	dir := fixtureDir(t)
	traces := t.TempDir()
	r := runGosct(t, dir, "test", "--json", "--seed", "1", "--schedules", "500", "--trace-dir", traces, "./buggy")
	if r.code != exitBug {
		t.Fatalf("want exit 1 for the deadlock:\n%s", r)
	}
	bugs := bugEvents(t, r)
	if len(bugs) == 0 {
		t.Fatalf("no bug event:\n%s", r)
	}
	bug := bugs[0]
	if bug["kind"] != "deadlock" || bug["test"] != "TestTransferBothWays" || bug["package"] != "example.com/e2emod/buggy" {
		t.Errorf("bug event %v", bug)
	}
	trace, _ := bug["trace"].(string)
	if !strings.HasPrefix(trace, traces) {
		t.Fatalf("trace %q not in --trace-dir %s", trace, traces)
	}
	if _, err := os.Stat(trace); err != nil {
		t.Fatalf("trace file: %v", err)
	}

	// The same seed finds the same bug at the same schedule.
	again := runGosct(t, dir, "test", "--json", "--seed", "1", "--schedules", "500", "--trace-dir", t.TempDir(), "./buggy")
	if b2 := bugEvents(t, again); len(b2) == 0 || b2[0]["schedule"] != bug["schedule"] || b2[0]["kind"] != bug["kind"] {
		t.Errorf("same seed, different result: first %v, then %v", bug, b2)
	}

	// The trace replays, every time.
	for i := 0; i < 10; i++ {
		rr := runGosct(t, dir, "replay", trace)
		if rr.code != exitBug || !strings.Contains(rr.stdout, "deadlock") {
			t.Fatalf("replay %d/10 did not reproduce the deadlock:\n%s", i+1, rr)
		}
	}
}

func TestE2EHumanReport(t *testing.T) {
	dir := fixtureDir(t)
	r := runGosct(t, dir, "test", "--seed", "1", "--schedules", "500", "--trace-dir", t.TempDir(), "./buggy")
	if r.code != exitBug {
		t.Fatalf("want exit 1:\n%s", r)
	}
	for _, want := range []string{"--- BUG deadlock in TestTransferBothWays", "replay: gosct replay ", "FAIL example.com/e2emod/buggy", "1 bug"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, r)
		}
	}
}

func TestE2ECorrectProgramPasses(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "test", "--seed", "1", "--schedules", "200", "--trace-dir", t.TempDir(), "./correct")
	if r.code != exitOK {
		t.Fatalf("want exit 0 for a correct program:\n%s", r)
	}
	if !strings.Contains(r.stdout, "ok   example.com/e2emod/correct") || !strings.Contains(r.stdout, "no bug") {
		t.Errorf("output:\n%s", r)
	}
}

func TestE2ESystematicSearchCompletes(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "test", "--json", "--strategy", "dfs", "--schedules", "100000", "--run", "TestCounter", "--trace-dir", t.TempDir(), "./correct")
	if r.code != exitOK {
		t.Fatalf("want exit 0:\n%s", r)
	}
	lines := jsonLines(t, r.stdout)
	s := lines[len(lines)-1]
	if s["exhausted_tests"] != float64(1) {
		t.Errorf("dfs did not exhaust TestCounter: %v", s)
	}
}

func TestE2EBadInputs(t *testing.T) {
	dir := fixtureDir(t)
	junk := filepath.Join(t.TempDir(), "junk.json")
	os.WriteFile(junk, []byte("{not json"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"test", "--strategy", "bogus", "./correct"}, `unknown strategy "bogus"`},
		{[]string{"test", "--schedules", "-3", "./correct"}, "--schedules must be at least 1"},
		{[]string{"test", "--nope", "./correct"}, "unknown flag: --nope"},
		{[]string{"test", "./doesnotexist"}, "doesnotexist"},
		{[]string{"test", "./broken"}, "broken.go:6"},
		{[]string{"replay", junk}, "not a gosct trace"},
		{[]string{"replay", filepath.Join(dir, "missing.json")}, "does not exist"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
	}
	for _, c := range cases {
		r := runGosct(t, dir, c.args...)
		if r.code != exitError || !strings.Contains(r.stdout+r.stderr, c.want) {
			t.Errorf("gosct %v: want exit 2 and %q:\n%s", c.args, c.want, r)
		}
	}
}

func TestE2ERewritePrintsSource(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "rewrite", "./buggy")
	if r.code != exitOK || !strings.Contains(r.stdout, "gosct.Lock(") {
		t.Fatalf("rewrite output lacks the instrumented lock:\n%s", r)
	}
}

// TestE2ETestprogs runs gosct over buggy programs of the corpus, when the
// corpus has them, and replays what it finds.
func TestE2ETestprogs(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testprogs"))
	progs := []string{"./sctbench/cs_deadlock01_bad", "./sctbench/cs_account_bad", "./gobugs/earlyreturn"}
	for _, p := range progs {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			continue
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			r := runGosct(t, root, "test", "--json", "--seed", "1", "--schedules", "2000", "--trace-dir", t.TempDir(), p)
			if r.code != exitBug {
				t.Fatalf("want exit 1 for a buggy program:\n%s", r)
			}
			bugs := bugEvents(t, r)
			trace, _ := bugs[0]["trace"].(string)
			for i := 0; i < 10; i++ {
				if rr := runGosct(t, root, "replay", trace); rr.code != exitBug {
					t.Fatalf("replay %d/10:\n%s", i+1, rr)
				}
			}
		})
	}
}
