package runtime

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// TestTooLongIsNotExplored: an execution stopped at the step limit while
// it still changes state stops the exploration, and the test is "not
// explored", never passed.
func TestTooLongIsNotExplored(t *testing.T) {
	dir := t.TempDir()
	c := &wire.Config{Mode: "explore", Strategy: "random", Schedules: 50, Seed: 1, MaxSteps: 300,
		TraceDir: filepath.Join(dir, "traces"), Results: filepath.Join(dir, "results.jsonl")}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	x.explore(func(t *testing.T) {
		var mu sync.Mutex
		n := 0
		for i := 0; i < 10000; i++ {
			Lock(&mu)
			n++
			Unlock(&mu)
		}
	})
	var test *wire.Event
	warned := false
	for _, e := range readEvents(t, c.Results) {
		switch e.Event {
		case "test":
			test = &e
		case "warning":
			warned = true
		case "bug":
			t.Errorf("bug: %s", e.Message)
		}
	}
	if test == nil || test.Schedules != 1 || test.Message != wire.StopTooLong || test.Outcome() != wire.OutcomeNotExplored || !warned {
		t.Fatalf("test event %+v (warned %v): want one schedule, stopped as too long, not explored", test, warned)
	}
}
