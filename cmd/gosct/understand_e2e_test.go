package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gosct/gosct/replay"
)

// The bug's story as a person reads it: the report's table, the schedule
// shrunk, the replay's report and its walk, the timeline page.

// corpusTraces runs gosct over corpus programs and returns their bug
// traces, with the run's output.
func corpusTraces(t *testing.T, progs ...string) ([]string, e2eResult) {
	t.Helper()
	root, _ := filepath.Abs(filepath.Join("..", "..", "testprogs"))
	dir := t.TempDir()
	args := append([]string{"test", "--keep-going", "--seed", "1", "--schedules", "300", "--budget", "10s", "--trace-dir", dir}, progs...)
	r := runGosct(t, root, append(args, "--", "-timeout", "120s")...)
	if r.code != exitBug {
		t.Fatalf("want exit 1:\n%s", r)
	}
	var traces []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(p, ".json") {
			traces = append(traces, p)
		}
		return nil
	})
	if len(traces) == 0 {
		t.Fatalf("no trace written:\n%s", r)
	}
	return traces, r
}

// TestE2EStepsAreCausal checks the steps of the corpus's bug traces, one
// program per kind of synchronization (the benchmark, .ci/bench-slice and
// the full one, checks every bug trace it produces the same way).
func TestE2EStepsAreCausal(t *testing.T) {
	traces, r := corpusTraces(t, "./gobugs/abba", "./gobugs/condsignalone", "./gobugs/sendonclosed",
		"./gobugs/timeoutleak", "./gobugs/pipelineleak", "./gobugs/wgnegative", "./sctbench/cs_account_bad")
	for _, p := range traces {
		tr, err := replay.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Steps) == 0 {
			t.Errorf("%s: no steps", filepath.Base(p))
		}
		for _, err := range replay.CheckSteps(tr) {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
		if tr.Minimized == nil {
			t.Errorf("%s: the schedule was not shrunk", filepath.Base(p))
		} else if m := tr.Minimized; m.To.Preemptions > m.From.Preemptions || m.To.Steps != len(tr.Decisions) {
			t.Errorf("%s: shrunk from %v to %v (%d decisions)", filepath.Base(p), m.From, m.To, len(tr.Decisions))
		}
	}
	// The report says how far it shrank the schedule, and shows it.
	if !regexp.MustCompile(`schedule: \d+ steps?, \d+ preemptions?, \d+ goroutines?`).MatchString(r.stdout) || !strings.Contains(r.stdout, "interleaving:") {
		t.Errorf("the reports lack the schedule's size or the interleaving:\n%s", r.stdout)
	}
}

// TestE2EShrunkABBA: the lock-order deadlock needs one preemption, and
// the trace holds a schedule with one, whatever the strategy found.
func TestE2EShrunkABBA(t *testing.T) {
	dir := fixtureDir(t)
	traces := t.TempDir()
	r := runGosct(t, dir, "test", "--strategy", "random", "--seed", "4", "--trace-dir", traces, "./buggy")
	if r.code != exitBug {
		t.Fatalf("want exit 1:\n%s", r)
	}
	files, _ := filepath.Glob(filepath.Join(traces, "*", "*.json"))
	if len(files) != 1 {
		t.Fatalf("traces %v", files)
	}
	tr, err := replay.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if tr.Minimized == nil || tr.Minimized.To.Preemptions != 1 {
		t.Fatalf("minimized: %+v\n%s", tr.Minimized, r)
	}
	// The table's rows: G2 starts after the go statement that creates it,
	// every lock's attempt is named.
	table := replay.Table(tr.Steps, tr.Goroutines, 0)
	goAt := strings.Index(table, "go buggy_test.go:13 → G2")
	startAt := strings.Index(table[max(goAt, 0):], "start")
	if goAt < 0 || startAt < 0 {
		t.Errorf("G2's go statement, then its start, not in:\n%s", table)
	}

	// gosct replay prints the same table; --step walks it.
	rr := runGosct(t, dir, "replay", "--step", files[0])
	if rr.code != exitBug {
		t.Fatalf("replay:\n%s", rr)
	}
	for _, want := range []string{"interleaving:", "schedule: ", "step 1 of ", "(blocks: mutex held by G", "end: deadlock"} {
		if !strings.Contains(rr.stdout, want) {
			t.Errorf("replay --step output lacks %q:\n%s", want, rr.stdout)
		}
	}
	if !strings.Contains(rr.stdout, strings.TrimSpace(strings.SplitN(table, "\n", 2)[1][:40])) {
		t.Errorf("the replay's table differs from the trace's:\n%s\ntrace:\n%s", rr.stdout, table)
	}
}

// TestE2EViewInChromium renders `gosct view` of a corpus trace in
// headless Chromium and reads the page's DOM: a lane per goroutine, a box
// per step, the blocked waits, the bug marker.
func TestE2EViewInChromium(t *testing.T) {
	traces, _ := corpusTraces(t, "./gobugs/abba")
	tr, err := replay.Read(traces[0])
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "view.html")
	if r := runGosct(t, ".", "view", "-o", page, traces[0]); r.code != exitOK {
		t.Fatalf("view:\n%s", r)
	}
	perf := filepath.Join(t.TempDir(), "view.json")
	if r := runGosct(t, ".", "view", "--format", "perfetto", "-o", perf, traces[0]); r.code != exitOK {
		t.Fatalf("view --format perfetto:\n%s", r)
	}
	var pj struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if b, err := os.ReadFile(perf); err != nil || json.Unmarshal(b, &pj) != nil || len(pj.TraceEvents) < len(tr.Steps) {
		t.Errorf("perfetto JSON: %v, %d events for %d steps", err, len(pj.TraceEvents), len(tr.Steps))
	}

	chromium := findChromium()
	if chromium == "" {
		t.Skip("Chromium is not installed (apt-get install chromium; .ci/run installs it): the page's DOM is not checked")
	}
	out, err := exec.Command(chromium, chromiumFlags(t, "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	dom := string(out)
	count := func(re string) int { return len(regexp.MustCompile(re).FindAllString(dom, -1)) }
	gs := 0
	for _, s := range tr.Steps {
		gs = max(gs, s.G+1, s.Child+1)
	}
	if n := count(`class="lane" data-g="\d+"`); n != gs {
		t.Errorf("%d lanes, want %d (one per goroutine)", n, gs)
	}
	if n := count(`class="step [^"]*" data-i="\d+"`); n != len(tr.Steps) {
		t.Errorf("%d step boxes, want %d", n, len(tr.Steps))
	}
	if count(`id="bug"`) != 1 || !strings.Contains(dom, ">deadlock<") {
		t.Errorf("no bug marker in the page")
	}
	if count(`class="gap"`) < 2 || count(`class="bugmark"`) != 2 {
		t.Errorf("the two blocked goroutines' waits and marks are not drawn")
	}
	// A screenshot, for a person to look at (GOSCT_VIEW_PNG=file).
	if png := os.Getenv("GOSCT_VIEW_PNG"); png != "" {
		if out, err := exec.Command(chromium, chromiumFlags(t, "--window-size=1800,400", "--screenshot="+png, "file://"+page)...).CombinedOutput(); err != nil {
			t.Errorf("screenshot: %v\n%s", err, out)
		}
	}
}

func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// chromiumFlags are the flags headless Chromium needs on a closed, root
// CI machine: no sandbox, no GPU, no network of its own, a fresh profile.
func chromiumFlags(t *testing.T, args ...string) []string {
	return append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}, args...)
}

// TestE2EFailureCarriesItsOutput: a test that fails its own check
// (t.Fatalf) gets a report that says what the check said, where, whether
// or not -v shows the test binary's output; gosct replay says it too.
func TestE2EFailureCarriesItsOutput(t *testing.T) {
	dir := fixtureDir(t)
	const check = "the test failed: shards_test.go:32: lost an update: 1"
	for _, verbose := range []bool{false, true} {
		traces := t.TempDir()
		args := []string{"test", "--seed", "1", "--races", "off", "--run", "^TestTwoBugs$", "--trace-dir", traces, "./shards"}
		if verbose {
			args = append(args, "-v")
		}
		r := runGosct(t, dir, args...)
		if r.code != exitBug {
			t.Fatalf("-v=%v: want exit 1:\n%s", verbose, r)
		}
		report := r.stdout[strings.Index(r.stdout, "--- BUG failure"):]
		if !strings.Contains(report, check) || strings.Contains(report, "output is above") {
			t.Errorf("-v=%v: the report does not carry the check's output:\n%s", verbose, r.stdout)
		}
		files, _ := filepath.Glob(filepath.Join(traces, "*", "*.json"))
		if len(files) != 1 {
			t.Fatalf("-v=%v: traces %v", verbose, files)
		}
		if rr := runGosct(t, dir, "replay", files[0]); rr.code != exitBug || !strings.Contains(rr.stdout, check) {
			t.Errorf("-v=%v: replay:\n%s", verbose, rr)
		}
	}
}
