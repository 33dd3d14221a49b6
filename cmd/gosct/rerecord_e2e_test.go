package main

import (
	"strings"
	"testing"

	"github.com/gosct/gosct/replay"
)

// TestE2EConfirmRerecords: a bug whose report changes package-level state
// (onceper: it fails once per process) does not come back when gosct runs
// its schedule again in the process that found it, so its trace lacks
// which goroutines could run at each decision, which gosct confirm needs;
// it does come back in a fresh process (the replay that confirms every
// bug). gosct test --confirm explores the test again with a process per
// schedule, finds the bug again with its details, and confirms that
// trace under go test.
func TestE2EConfirmRerecords(t *testing.T) {
	traces := t.TempDir()
	r := runGosct(t, fixtureDir(t), "test", "--json", "--confirm", "--seed", "1", "--trace-dir", traces, "./onceper")
	bugs := bugEvents(t, r)
	if r.code != exitBug || len(bugs) != 1 || bugs[0]["replayed"] != true {
		t.Fatalf("want one bug, confirmed by its fresh replay:\n%s", r)
	}
	b := bugs[0]
	own, err := replay.Read(b["trace"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if !own.Uncontrolled || !unrecorded(b["trace"].(string)) {
		t.Fatalf("the bug's own trace records the goroutines that could run: the fixture no longer shows the case:\n%s", r)
	}
	conf, _ := b["confirm"].(map[string]any)
	if conf == nil || conf["confirmed"] != true || conf["same"].(float64) < 1 {
		t.Fatalf("not confirmed under go test: %v\n%s", conf, r)
	}
	again, _ := conf["trace"].(string)
	if again == "" || again == b["trace"] || !strings.HasSuffix(again, "-per-process.json") || unrecorded(again) {
		t.Fatalf("confirmed trace %q, want one recorded again in fresh processes, with the goroutines that could run", again)
	}
	if tr, err := replay.Read(again); err != nil || tr.Bug == nil || tr.Bug.Kind != "failure" || tr.Test != "TestLookFirst" {
		t.Fatalf("trace %s: %v, %+v", again, err, tr)
	}
	notes, _ := conf["notes"].([]any)
	if len(notes) == 0 || !strings.Contains(notes[0].(string), "with every schedule in a fresh process") {
		t.Errorf("no note says where the confirmed trace came from: %v", notes)
	}
	if !strings.Contains(conf["patch"].(string), "onceper") {
		t.Errorf("patch %q", conf["patch"])
	}
}
