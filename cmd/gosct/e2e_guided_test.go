package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Guided search end to end: the command analyses the package, the test
// binary steers by the guide, the bug's trace replays like any other; a
// --target the packages do not have is bad input.
func TestE2EGuided(t *testing.T) {
	dir := fixtureDir(t)
	r := runGosct(t, dir, "test", "--json", "--strategy", "guided", "--seed", "1", "--schedules", "500", "--trace-dir", t.TempDir(), "./buggy")
	if r.code != exitBug {
		t.Fatalf("want exit 1 for the deadlock:\n%s", r)
	}
	bugs := bugEvents(t, r)
	if len(bugs) == 0 || bugs[0]["strategy"] != "guided" {
		t.Fatalf("bug events %v:\n%s", bugs, r)
	}
	trace, _ := bugs[0]["trace"].(string)
	if rr := runGosct(t, dir, "replay", trace); rr.code != exitBug {
		t.Fatalf("the guided run's trace does not replay:\n%s", rr)
	}
	for _, c := range []struct {
		target, want string
	}{
		{"nosuch.go:3", "--target nosuch.go:3: no such file in the packages tested"},
		{"buggy/buggy.go:1", "--target buggy/buggy.go:1: no code on that line"},
	} {
		r := runGosct(t, dir, "test", "--strategy", "guided", "--target", c.target, "./buggy")
		if r.code != exitError || !strings.Contains(r.stderr, c.want) {
			t.Errorf("--target %s: want exit 2 and %q:\n%s", c.target, c.want, r)
		}
	}
}

// On the thesis's kind of program (testprogs/guided), guided search finds
// the bug in the first schedules, and passes the fixed twin.
func TestE2EGuidedTestprogs(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testprogs"))
	if _, err := os.Stat(filepath.Join(root, "guided", "reorder_mixed")); err != nil {
		t.Skip("no testprogs/guided")
	}
	r := runGosct(t, root, "test", "--json", "--strategy", "guided", "--seed", "1", "--schedules", "20", "--trace-dir", t.TempDir(), "./guided/reorder_mixed", "./guided/reorder_mixed/fixed")
	if r.code != exitBug {
		t.Fatalf("want exit 1:\n%s", r)
	}
	bugs := bugEvents(t, r)
	if len(bugs) != 1 || bugs[0]["package"] != "github.com/gosct/gosct/testprogs/guided/reorder_mixed" || bugs[0]["kind"] != "failure" {
		t.Fatalf("bugs %v:\n%s", bugs, r)
	}
	if s, _ := bugs[0]["schedule"].(float64); s > 5 {
		t.Errorf("found at schedule %v, want within 5", s)
	}
}
