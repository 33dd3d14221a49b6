package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Under `gosct test -- -race`, Go's race detector must see the program's
// races and only them: the runtime's own hand-offs between the goroutines
// it serializes must not order their accesses (docs/races.md, "Go's race
// detector"). The fixture testdata/racemod has racy tests and correctly
// synchronized ones, one per kind of synchronization.

func raceFixture(t *testing.T) string {
	d, err := filepath.Abs(filepath.Join("testdata", "racemod"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// accessFrame matches the first frame of an access in a race report.
var accessFrame = regexp.MustCompile(`(?m)^(?:Write|Read|Previous write|Previous read) at 0x[0-9a-f]+ by\s+goroutine \d+:\n\s+(\S+)\(\)\n\s+\S+ \+0x[0-9a-f]+\n\s+(\S+)\(\)\n\s+(\S+):\d+`)

func TestE2EGoRaceDetectorSeesRaces(t *testing.T) {
	dir := raceFixture(t)
	// dfs's first schedule runs the test goroutine until it blocks, then
	// the other goroutine: the two writes are separated only by the
	// runtime's hand-off, which used to hide the race.
	traces := t.TempDir()
	r := runGosct(t, dir, "test", "-v", "--races", "off", "--strategy", "dfs", "--schedules", "1", "--trace-dir", traces, "./racy", "--", "-race")
	if r.code != exitBug {
		t.Fatalf("want exit 1 for the races:\n%s", r)
	}
	out := r.stdout + r.stderr
	if n := strings.Count(out, "WARNING: DATA RACE"); n < 3 {
		t.Fatalf("%d race reports, want one per racy test:\n%s", n, r)
	}
	for _, want := range []string{"racy/racy.go:8", "racy/racy.go:18", "racy/racy.go:21", "racy/racy_test.go:25", "racy/racy_test.go:40", "racy/racy_test.go:43"} {
		if !strings.Contains(out, want) {
			t.Errorf("no race report names %s", want)
		}
	}
	// Every racing access is the user's: performed by the access hook
	// (Load, Store) the rewriter put in the user's code, or by the user's
	// code itself, and the next frame is the user's.
	ms := accessFrame.FindAllStringSubmatch(out, -1)
	if len(ms) < 6 {
		t.Fatalf("%d access stacks in the reports, want 6 or more:\n%s", len(ms), out)
	}
	for _, m := range ms {
		top, next, file := m[1], m[2], m[3]
		hook := false
		for _, h := range []string{"Load", "Store", "LoadAt", "StoreAt", "ShadowLoad", "ShadowStore"} {
			hook = hook || strings.HasPrefix(top, "github.com/gosct/gosct/runtime."+h+"[")
		}
		user := strings.HasPrefix(top, "example.com/racemod/")
		if !hook && !user {
			t.Errorf("a racing access in %s, not in the user's code", top)
		}
		if hook && (!strings.HasPrefix(next, "example.com/racemod/") || !strings.Contains(file, "racemod")) {
			t.Errorf("access hook %s called from %s (%s), not from the user's code", top, next, file)
		}
	}

	// The trace replays: the re-run that wrote it reported the race again
	// (goRaceEnv), and so does a replay.
	trace := filepath.Join(traces, "example.com_racemod_racy", "TestRace-failure-1.json")
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"uncontrolled"`) {
		t.Errorf("the trace is marked uncontrolled: its re-run did not report the race again")
	}
	rr := runGosct(t, dir, "replay", "-v", trace, "--", "-race")
	if rr.code != exitBug || !strings.Contains(rr.stdout+rr.stderr, "WARNING: DATA RACE") || !strings.Contains(rr.stdout+rr.stderr, "happened again") {
		t.Errorf("the replay did not report the race:\n%s", rr)
	}
}

func TestE2EGoRaceDetectorNoFalseRaces(t *testing.T) {
	r := runGosct(t, raceFixture(t), "test", "-v", "--races", "off", "--strategy", "random", "--seed", "1", "--schedules", "20", "--trace-dir", t.TempDir(), "./synced", "--", "-race")
	if r.code != exitOK || strings.Contains(r.stdout+r.stderr, "WARNING: DATA RACE") {
		t.Fatalf("want no race report for synchronized programs:\n%s", r)
	}
	if !strings.Contains(r.stdout, "--- PASS: TestContextTimeout") {
		t.Fatalf("the fixture's tests did not run:\n%s", r)
	}
}

// gosct's own detector (on by default) reports no race on the same
// synchronized programs.
func TestE2EDetectorNoFalseRaces(t *testing.T) {
	r := runGosct(t, raceFixture(t), "test", "--strategy", "random", "--seed", "1", "--schedules", "50", "--trace-dir", t.TempDir(), "./synced")
	if r.code != exitOK {
		t.Fatalf("want no race for synchronized programs:\n%s", r)
	}
}
