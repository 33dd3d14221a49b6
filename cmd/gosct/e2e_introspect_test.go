package main

import "testing"

// TestE2EIntrospection: tests that read the goroutine dump
// (runtime.Stack, as goleak does), math/rand's seeded sequence,
// testing.AllocsPerRun and the collection of what they dropped pass, as
// they do under go test (issue 23: goleak saw gosct's goroutines and
// frames, websocket's seeded masks differed; issue 32: otter counted the
// locals of a deferred closure, moved to the heap, and its cache was
// never collected: TestCollected).
func TestE2EIntrospection(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "test", "--json", "--seed", "1", "--schedules", "200", "--trace-dir", t.TempDir(), "./introspect")
	if r.code != exitOK {
		t.Fatalf("want exit 0 for a correct program:\n%s", r)
	}
	if bugs := bugEvents(t, r); len(bugs) != 0 {
		t.Fatalf("bugs %v:\n%s", bugs, r)
	}
}

// TestE2EPerProcessBugAgain: in per-process mode, the processes after the
// first bug that end in the same bug fail their binary; that is the bug
// found again, not an error.
func TestE2EPerProcessBugAgain(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "test", "--json", "--per-process", "--keep-going", "--seed", "1", "--schedules", "30", "--trace-dir", t.TempDir(), "./buggy")
	if r.code != exitBug || len(bugEvents(t, r)) != 1 {
		t.Fatalf("want exit 1 and one bug:\n%s", r)
	}
	for _, l := range jsonLines(t, r.stdout) {
		if l["event"] == "error" {
			t.Errorf("error event %v", l)
		}
	}
}
