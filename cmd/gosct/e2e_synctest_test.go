package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ESynctest: tests that use testing/synctest (the bubble with its
// fake clock, synctest.Test with time and synctest.Wait) pass as under go
// test, beside a test of the same package outside any bubble; a synctest
// test that fails under go test (a goroutine left blocked in the bubble)
// is a bug whose trace replays. gosct used to crash the test binary
// ("fatal error: send on synctest channel from outside bubble": it adopted
// the bubble's goroutines). testdata/bubblemod has the shape of
// github.com/gammazero/workerpool v1.3.0's pacer tests.
func TestE2ESynctest(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "bubblemod"))
	if err != nil {
		t.Fatal(err)
	}
	r := runGosct(t, dir, "test", "--json", "--seed", "1", "--schedules", "20", "--trace-dir", t.TempDir(), "./bubble")
	if r.code != exitOK || len(bugEvents(t, r)) != 0 {
		t.Fatalf("synctest tests:\n%s", r)
	}
	n := 0
	for _, l := range jsonLines(t, r.stdout) {
		if l["event"] == "test" {
			n++
			// All 20 schedules, or fewer when the portfolio's dpor
			// member explored every trace (the search is exhausted).
			if l["result"] != "ok" || (l["schedules"] != 20.0 && l["exhausted"] != true) {
				t.Errorf("test event %v", l)
			}
		}
	}
	if n != 3 {
		t.Fatalf("%d test events, want 3:\n%s", n, r)
	}
	r = runGosct(t, dir, "test", "--json", "--seed", "1", "--schedules", "20", "--trace-dir", t.TempDir(), "./bubblebug")
	b := bugEvents(t, r)
	if r.code != exitBug || len(b) != 1 || b[0]["kind"] != "panic" || b[0]["replayed"] != true ||
		!strings.Contains(b[0]["message"].(string), "main bubble goroutine has exited but blocked goroutines remain") {
		t.Fatalf("the bubble's deadlock:\n%s", r)
	}
}
