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
// programs, a package that does not compile) and the testprogs corpus.
// -short skips them; a gosct that does not build fails them.

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
		// A gosct that does not build is a failure, never a reason to
		// skip what these tests check.
		t.Fatalf("cannot build gosct: %v", gosctBinErr)
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
	r := runGosct(t, fixtureDir(t), "test", "--json", "--strategy", "dfs", "--schedules", "100000", "--run", "TestHandoff", "--trace-dir", t.TempDir(), "./correct")
	if r.code != exitOK {
		t.Fatalf("want exit 0:\n%s", r)
	}
	lines := jsonLines(t, r.stdout)
	s := lines[len(lines)-1]
	if s["exhausted_tests"] != float64(1) {
		t.Errorf("dfs did not exhaust TestHandoff: %v", s)
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

// TestE2ETestprogs runs gosct over programs of the corpus: the buggy ones
// exit 1 with a trace that replays 10 times out of 10 (from another
// working directory), the fixed twin passes.
func TestE2ETestprogs(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testprogs"))
	progs := []struct {
		path string
		code int
	}{
		{"./sctbench/cs_account_bad", exitBug},
		{"./sctbench/cs_stack_bad", exitBug},
		{"./gobugs/earlyreturn", exitBug},
		{"./gobugs/earlyreturn_fixed", exitOK},
	}
	for _, p := range progs {
		if _, err := os.Stat(filepath.Join(root, p.path)); err != nil {
			t.Fatalf("corpus program %s: %v", p.path, err)
		}
		p := p
		t.Run(filepath.Base(p.path), func(t *testing.T) {
			// The budget and -timeout turn a hang into a failure.
			r := runGosct(t, root, "test", "--json", "--seed", "1", "--schedules", "2000", "--budget", "20s",
				"--trace-dir", t.TempDir(), p.path, "--", "-timeout", "90s")
			if r.code != p.code {
				t.Fatalf("want exit %d:\n%s", p.code, r)
			}
			if p.code != exitBug {
				return
			}
			bugs := bugEvents(t, r)
			trace, _ := bugs[0]["trace"].(string)
			replay10(t, trace) // one build, 10 fresh processes
		})
	}
}

// copyDir copies the regular files of the tree at src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestE2ERegressionAndDivergence keeps a trace in testdata/gosct (gosct test
// replays it first), then changes the code so that the trace no longer
// fits: replay stops at the divergence with exit 2, --continue goes on and
// finds the deadlock again.
func TestE2ERegressionAndDivergence(t *testing.T) {
	mod := t.TempDir()
	copyDir(t, fixtureDir(t), mod)
	r := runGosct(t, mod, "test", "--json", "--seed", "1", "--schedules", "500", "--trace-dir", t.TempDir(), "./buggy")
	bugs := bugEvents(t, r)
	if r.code != exitBug || len(bugs) == 0 {
		t.Fatalf("want the deadlock:\n%s", r)
	}
	b, err := os.ReadFile(bugs[0]["trace"].(string))
	if err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(mod, "buggy", "testdata", "gosct")
	os.MkdirAll(corpus, 0o755)
	kept := filepath.Join(corpus, "deadlock.json")
	if err := os.WriteFile(kept, b, 0o644); err != nil {
		t.Fatal(err)
	}
	r = runGosct(t, mod, "test", "--json", "--seed", "2", "--schedules", "1", "--strategy", "random", "--trace-dir", t.TempDir(), "./buggy")
	var regression bool
	for _, bug := range bugEvents(t, r) {
		regression = regression || bug["regression"] == filepath.Join("testdata", "gosct", "deadlock.json")
	}
	if r.code != exitBug || !regression {
		t.Fatalf("the kept trace was not replayed as a regression case:\n%s", r)
	}

	// One more scheduling point before the locks: the recorded decisions
	// no longer match.
	src := filepath.Join(mod, "buggy", "buggy.go")
	code, _ := os.ReadFile(src)
	code = []byte(strings.Replace(string(code), "\ta.mu.Lock()\n\tdefer a.mu.Unlock()",
		"\ta.mu.Lock()\n\ta.mu.Unlock()\n\ta.mu.Lock()\n\tdefer a.mu.Unlock()", 1))
	if err := os.WriteFile(src, code, 0o644); err != nil {
		t.Fatal(err)
	}
	r = runGosct(t, mod, "replay", kept)
	if r.code != exitError || !strings.Contains(r.stderr, "diverged") || !strings.Contains(r.stderr, "expected goroutine") {
		t.Fatalf("want the divergence reported with exit 2:\n%s", r)
	}
	r = runGosct(t, mod, "replay", "--continue", "--schedules", "500", "--trace-dir", t.TempDir(), kept)
	if r.code != exitBug || !strings.Contains(r.stdout, "deadlock") {
		t.Fatalf("--continue did not lead to the deadlock:\n%s", r)
	}
}
