package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testEvent returns the one "test" object of --json output.
func testEvent(t *testing.T, r e2eResult) map[string]any {
	t.Helper()
	var ev map[string]any
	for _, l := range jsonLines(t, r.stdout) {
		if l["event"] == "test" {
			if ev != nil {
				t.Fatalf("two test events:\n%s", r)
			}
			ev = l
		}
	}
	if ev == nil {
		t.Fatalf("no test event:\n%s", r)
	}
	return ev
}

// TestE2EStateResume interrupts a DFS every 2 schedules (the schedule
// budget) and resumes it from --state until it is exhausted: the runs
// together explore what one uninterrupted run does, numbering on.
func TestE2EStateResume(t *testing.T) {
	dir := fixtureDir(t)
	traces := t.TempDir()
	args := []string{"test", "--json", "--strategy", "dfs", "--seed", "3", "--run", "TestHandoff", "--trace-dir", traces}
	full := runGosct(t, dir, append(args, "--schedules", "100000", "./correct")...)
	want := testEvent(t, full)["schedules"].(float64)
	if full.code != exitOK || want < 3 {
		t.Fatalf("uninterrupted run:\n%s", full)
	}
	state := t.TempDir()
	total, runs := 0.0, 0
	for ; runs < 20; runs++ {
		r := runGosct(t, dir, append(args, "--schedules", "2", "--state", state, "./correct")...)
		ev := testEvent(t, r)
		if r.code != exitOK || ev["resumed"] != nil && ev["resumed"].(float64) != total {
			t.Fatalf("run %d after %v schedules:\n%s", runs+1, total, r)
		}
		total += ev["schedules"].(float64)
		if ev["exhausted"] == true {
			break
		}
	}
	if total != want || runs < 2 {
		t.Fatalf("%d resumed runs explored %v schedules, one run %v", runs+1, total, want)
	}
	// Without --seed the run takes the saved seed; other options are an
	// error, with exit status 2.
	r := runGosct(t, dir, "test", "--json", "--strategy", "dfs", "--run", "TestHandoff", "--state", state, "--trace-dir", traces, "./correct")
	if r.code != exitOK || !strings.Contains(r.stdout, `"seed":3`) || testEvent(t, r)["exhausted"] != true {
		t.Fatalf("resume without --seed:\n%s", r)
	}
	r = runGosct(t, dir, "test", "--strategy", "random", "--run", "TestHandoff", "--state", state, "--trace-dir", traces, "./correct")
	if r.code != exitError || !strings.Contains(r.stderr, "strategy dfs, not random") {
		t.Fatalf("want exit 2 for a search saved by another strategy:\n%s", r)
	}
}

// TestE2EPerProcess: one process per schedule finds the same bug at the same
// schedule as the in-process run of the same seed, with a trace that
// replays; a DFS exhausts with the same count; and a test that cannot run
// twice in one process (a package-level registry) passes, where the
// in-process run reports the second registration; and the bug of a cold
// package-level cache is found.
func TestE2EPerProcess(t *testing.T) {
	dir := fixtureDir(t)
	traces := t.TempDir()
	in := runGosct(t, dir, "test", "--json", "--seed", "1", "--schedules", "500", "--trace-dir", t.TempDir(), "./buggy")
	pp := runGosct(t, dir, "test", "--json", "--per-process", "--seed", "1", "--schedules", "500", "--trace-dir", traces, "./buggy")
	bin, bpp := bugEvents(t, in), bugEvents(t, pp)
	if pp.code != exitBug || len(bpp) != 1 || len(bin) != 1 || bpp[0]["schedule"] != bin[0]["schedule"] || bpp[0]["kind"] != "deadlock" || bpp[0]["replayed"] != true {
		t.Fatalf("per-process run:\n%s\nin-process run:\n%s", pp, in)
	}
	if ev := testEvent(t, pp); ev["schedules"] != bpp[0]["schedule"] || ev["bugs"] != 1.0 {
		t.Fatalf("per-process test event %v after a bug at schedule %v", ev, bpp[0]["schedule"])
	}
	trace := bpp[0]["trace"].(string)
	if !strings.HasPrefix(trace, traces) {
		t.Fatalf("trace %s not in --trace-dir", trace)
	}
	for i := 0; i < 3; i++ {
		if rr := runGosct(t, t.TempDir(), "replay", trace); rr.code != exitBug || !strings.Contains(rr.stdout, "deadlock") {
			t.Fatalf("replay %d of the per-process trace:\n%s", i+1, rr)
		}
	}

	// --races off: the cache test's lost update is also a race, and the
	// point here is the failure only the cold path shows.
	args := []string{"test", "--json", "--races", "off", "--strategy", "dfs", "--seed", "1", "--schedules", "1000", "--trace-dir", traces}
	in = runGosct(t, dir, append(args, "--run", "TestHandoff", "./correct")...)
	pp = runGosct(t, dir, append(args, "--per-process", "--run", "TestHandoff", "./correct")...)
	ei, ep := testEvent(t, in), testEvent(t, pp)
	if pp.code != exitOK || ep["exhausted"] != true || ep["schedules"] != ei["schedules"] {
		t.Fatalf("per-process dfs %v, in-process %v:\n%s", ep, ei, pp)
	}

	// A package-level cache: in one process only the first schedule
	// takes the cold path, where the bug is.
	in = runGosct(t, dir, append(args, "./cache")...)
	pp = runGosct(t, dir, append(args, "--per-process", "./cache")...)
	t.Logf("in one process, the cache's bug: exit %d (the search sees the cold path once)", in.code)
	if b := bugEvents(t, pp); pp.code != exitBug || len(b) != 1 || b[0]["kind"] != "failure" || b[0]["replayed"] != true {
		t.Fatalf("per-process run missed the bug of the cold cache:\n%s", pp)
	}

	// In one process the second schedule registers twice; its fresh
	// replay does not, so it is a warning, and the test is explored again
	// with a process per schedule (TestE2EStateCarried).
	in = runGosct(t, dir, append(args, "./global")...)
	pp = runGosct(t, dir, append(args, "--per-process", "./global")...)
	if in.code != exitOK || !strings.Contains(in.stdout, "registered twice") || !strings.Contains(in.stdout, "state carried between the schedules") || testEvent(t, in)["exhausted"] != true {
		t.Fatalf("in-process run of a test that registers a global twice:\n%s", in)
	}
	if pp.code != exitOK || testEvent(t, pp)["exhausted"] != true {
		t.Fatalf("per-process run of a test that runs once per process:\n%s", pp)
	}
}

// TestE2EStateBadDir: a state file that is not one is bad input.
func TestE2EStateBadDir(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, "x.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runGosct(t, fixtureDir(t), "test", "--state", state, "--trace-dir", t.TempDir(), "./correct")
	if r.code != exitError || !strings.Contains(r.stderr, "not a gosct saved state") {
		t.Fatalf("want exit 2 for a corrupt state file:\n%s", r)
	}
}

// TestE2EPerProcessExit: a schedule that ends its process (os.Exit on one
// outcome of a race) is an error naming the schedule, exit status 2; with
// --keep-going the search goes on past every such schedule to its end.
func TestE2EPerProcessExit(t *testing.T) {
	dir := fixtureDir(t)
	args := []string{"test", "--json", "--per-process", "--strategy", "dfs", "--seed", "1", "--trace-dir", t.TempDir()}
	r := runGosct(t, dir, append(args, "./exits")...)
	if r.code != exitError || !strings.Contains(r.stdout, "ended the test binary (exit status 3)") || testEvent(t, r)["exhausted"] == true {
		t.Fatalf("want the exit reported as an error, exploration stopped:\n%s", r)
	}
	r = runGosct(t, dir, append(args, "--keep-going", "./exits")...)
	errs := 0
	for _, l := range jsonLines(t, r.stdout) {
		if l["event"] == "error" {
			errs++
		}
	}
	if r.code != exitError || errs < 2 || testEvent(t, r)["exhausted"] != true {
		t.Fatalf("want every exit reported and the search exhausted:\n%s", r)
	}
	// Random takes a new schedule after one that ended its process (the
	// decisions drawn for it were lost with it): about half exit.
	args = []string{"test", "--json", "--per-process", "--strategy", "random", "--seed", "1", "--schedules", "40", "--keep-going", "--trace-dir", t.TempDir()}
	r = runGosct(t, dir, append(args, "./exits")...)
	errs = 0
	for _, l := range jsonLines(t, r.stdout) {
		if l["event"] == "error" {
			errs++
		}
	}
	if r.code != exitError || errs == 0 || errs > 32 || testEvent(t, r)["schedules"] != 40.0 {
		t.Fatalf("random: %d of 40 schedules exited:\n%s", errs, r)
	}
}

// TestE2EExitResumes: a test that ends the test binary (a helper's
// log.Fatal) between two others is the error, exit status 2, and the test
// written after it, which the binary did not get to, is explored in a
// fresh process: nothing is lost.
func TestE2EExitResumes(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "test", "--json", "--seed", "1", "--schedules", "20", "--trace-dir", t.TempDir(), "./fatal")
	tests := map[string]map[string]any{}
	var errs []map[string]any
	for _, l := range jsonLines(t, r.stdout) {
		switch l["event"] {
		case "test":
			tests[l["test"].(string)] = l
		case "error":
			errs = append(errs, l)
		}
	}
	if r.code != exitError || len(tests) != 2 || tests["TestStart"] == nil || tests["TestAfter"]["schedules"] != 20.0 {
		t.Fatalf("want TestStart and TestAfter explored, exit 2:\n%s", r)
	}
	if len(errs) != 1 || errs[0]["test"] != "TestExit" || !strings.Contains(errs[0]["message"].(string), "exited with status 1 in TestExit") ||
		!strings.Contains(r.stderr, "helper: giving up") {
		t.Errorf("want the exit in TestExit reported with its output:\n%s", r)
	}
}

// TestE2EStateCarried: github.com/golang/groupcache's shape (a registry
// refusing a name twice, groups registered through a sync.Once, tests that
// need a cold cache). In one process the second schedule of a test fails
// (a deadlock on the warm cache, a duplicate registration), which a fresh
// process does not: every bug is confirmed by replaying its trace in a
// fresh process, so these are warnings naming the state (the Once), no
// bug; the tests are explored again with a process per schedule.
func TestE2EStateCarried(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "test", "--json", "--seed", "1", "--schedules", "30", "--trace-dir", t.TempDir(), "./registry")
	if r.code != exitOK || len(bugEvents(t, r)) != 0 {
		t.Fatalf("want no bug:\n%s", r)
	}
	warned := map[string]string{}
	tests := map[string]map[string]any{}
	for _, l := range jsonLines(t, r.stdout) {
		switch l["event"] {
		case "warning":
			if m, _ := l["message"].(string); strings.Contains(m, "state carried between the schedules") {
				warned[l["test"].(string)] = m
			}
		case "test":
			tests[l["test"].(string)] = l
		}
	}
	if !strings.Contains(warned["TestColdGet"], "the sync.Once at registry_test.go:23") || !strings.Contains(warned["TestRegister"], "duplicate registration") {
		t.Fatalf("warnings %v:\n%s", warned, r)
	}
	for _, name := range []string{"TestColdGet", "TestRegister", "TestWarm"} {
		ev := tests[name]
		if ev == nil || ev["result"] != "ok" || ev["bugs"] != 0.0 || ev["schedules"].(float64) < 2 {
			t.Errorf("%s: test event %v", name, ev)
		}
	}
	if _, ok := warned["TestWarm"]; ok {
		t.Errorf("TestWarm runs again in one process, yet was warned about: %s", warned["TestWarm"])
	}
}
