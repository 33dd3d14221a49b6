package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
)

// TestE2EConfirmRerecords: a bug whose report changes package-level state
// (onceper: each test fails once per process) does not come back when
// gosct runs its schedule again in the process that found it, so its
// trace lacks which goroutines could run at each decision, which gosct
// confirm needs; it does come back in a fresh process (the replay that
// confirms every bug). gosct test --confirm explores the test again with
// a process per schedule, finds the bug again with its details, and
// confirms that trace under go test: with the portfolio, whose
// schedules are numbered, the schedule that found it run alone (the
// strategy seeks to it); with dpor, which cannot seek, a search from the
// first schedule.
func TestE2EConfirmRerecords(t *testing.T) {
	for _, c := range []struct{ strategy, how string }{
		{"portfolio", "run alone"},
		{"dpor", "of a search from the first"},
	} {
		t.Run(c.strategy, func(t *testing.T) { testConfirmRerecords(t, c.strategy, c.how) })
	}
}

func testConfirmRerecords(t *testing.T, strategy, how string) {
	traces := t.TempDir()
	r := runGosct(t, fixtureDir(t), "test", "--json", "--confirm", "--seed", "1", "--strategy", strategy, "--trace-dir", traces, "./onceper")
	bugs := bugEvents(t, r)
	if r.code != exitBug || len(bugs) != 2 {
		t.Fatalf("want two bugs:\n%s", r)
	}
	for _, b := range bugs {
		test := b["test"].(string)
		if b["replayed"] != true {
			t.Errorf("%s: not confirmed by its fresh replay", test)
		}
		own, err := replay.Read(b["trace"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if !own.Uncontrolled || !unrecorded(b["trace"].(string)) {
			t.Fatalf("%s: the bug's own trace records the goroutines that could run: the fixture no longer shows the case:\n%s", test, r)
		}
		conf, _ := b["confirm"].(map[string]any)
		if conf == nil || conf["confirmed"] != true || conf["same"].(float64) < 1 {
			t.Fatalf("%s: not confirmed under go test: %v\n%s", test, conf, r)
		}
		again, _ := conf["trace"].(string)
		if again == "" || again == b["trace"] || !strings.HasSuffix(again, "-per-process.json") || unrecorded(again) {
			t.Fatalf("%s: confirmed trace %q, want one recorded again in fresh processes, with the goroutines that could run", test, again)
		}
		if tr, err := replay.Read(again); err != nil || tr.Bug == nil || tr.Bug.Kind != "failure" || tr.Test != test {
			t.Fatalf("%s: trace %s: %v, %+v", test, again, err, tr)
		}
		notes, _ := conf["notes"].([]any)
		if len(notes) == 0 || !strings.Contains(notes[0].(string), "with every schedule in a fresh process") {
			t.Fatalf("%s: no note says where the confirmed trace came from: %v", test, notes)
		}
		if b["schedule"].(float64) < 2 {
			t.Fatalf("%s: found at schedule 1: nothing to seek to, the fixture or the seed no longer shows the case", test)
		}
		if !strings.Contains(notes[0].(string), how) {
			t.Errorf("%s, found at schedule %v: note %q, want %q", test, b["schedule"], notes[0], how)
		}
		if !strings.Contains(conf["patch"].(string), "onceper") {
			t.Errorf("%s: patch %q", test, conf["patch"])
		}
	}
}

// TestE2EDivergedReplayIsTriedAgain: the fresh replay that confirms a bug
// diverged (divergeonce's test takes another path in the second process
// of the run, as a schedule that read what gosct does not control may):
// a replay that did not follow the schedule says nothing of state carried
// between schedules, so the bug gets its further replays, and the next
// one confirms it: a bug, not a warning that it came from carried state.
func TestE2EDivergedReplayIsTriedAgain(t *testing.T) {
	count := filepath.Join(t.TempDir(), "count")
	t.Setenv("DIVERGEONCE_COUNT", count)
	r := runGosct(t, fixtureDir(t), "test", "--json", "--seed", "1", "--trace-dir", t.TempDir(), "./divergeonce")
	bugs := bugEvents(t, r)
	if r.code != exitBug || len(bugs) != 1 || bugs[0]["replayed"] != true {
		t.Fatalf("want one bug, confirmed by a fresh replay:\n%s", r)
	}
	for _, l := range jsonLines(t, r.stdout) {
		if m, _ := l["message"].(string); l["event"] == "warning" && strings.Contains(m, "state carried") {
			t.Errorf("warned of carried state: %s", m)
		}
	}
	data, err := os.ReadFile(count)
	if err != nil || strings.TrimSpace(string(data)) != "3" {
		t.Errorf("processes that ran the test: %q (%v), want 3: the exploration, the replay that diverged, the one that confirmed", data, err)
	}
}

// TestCarriedWarningSaysWhatTheReplaysDid: a bug whose fresh replays all
// diverged is not blamed on carried state alone (no replay ran its
// schedule); one whose replay ran the schedule without it is.
func TestCarriedWarningSaysWhatTheReplaysDid(t *testing.T) {
	b := wire.Event{Test: "TestX", Kind: "failure", Schedule: 1, Message: "the test failed: x_test.go:3: boom"}
	diverged := carriedWarning(b, confirmation{replays: 3, diverged: "TestX: diverged at step 5: expected goroutine 1"})
	if !strings.Contains(diverged, "all 3 replays diverged from the schedule") || !strings.Contains(diverged, "the first replay diverged at step 5") ||
		strings.Contains(diverged, "it came from state carried") || strings.Contains(diverged, "shows the same") {
		t.Errorf("all replays diverged: %s", diverged)
	}
	ran := carriedWarning(b, confirmation{replays: 1, followed: 1})
	if !strings.Contains(ran, "it came from state carried between the schedules of one process") || !strings.Contains(ran, "go test -count=2 -run '^TestX$' shows the same") {
		t.Errorf("a replay ran the schedule without the bug: %s", ran)
	}
}
