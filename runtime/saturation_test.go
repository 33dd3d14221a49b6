package runtime

import (
	"path/filepath"
	"sync"
	"testing"
	"unsafe"

	"github.com/gosct/gosct/internal/wire"
)

// twoCounters is a correct test whose few conflicting pairs every
// schedule soon repeats: two goroutines add under a mutex.
func twoCounters(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	Add(&wg, 2)
	for i := 0; i < 2; i++ {
		Go(func() {
			defer Done(&wg)
			Lock(&mu)
			n++
			Unlock(&mu)
		})
	}
	Wait(&wg)
}

// TestSaturationStopsATest: with the saturation rule on, a test whose
// sampled schedules stop reaching new pairs stops before its schedule
// limit, reports where its coverage saturated, and is neither exhausted
// nor a proof; with the rule off it runs to its limit.
func TestSaturationStopsATest(t *testing.T) {
	const limit = 3000
	for _, on := range []bool{true, false} {
		dir := t.TempDir()
		c := &wire.Config{Mode: "explore", Strategy: "random", Schedules: limit, Seed: 1, Saturate: on,
			TraceDir: filepath.Join(dir, "traces"), Results: filepath.Join(dir, "results.jsonl")}
		x, err := newExplorer(t, c)
		if err != nil {
			t.Fatal(err)
		}
		x.explore(twoCounters)
		evs := readEvents(t, c.Results)
		for _, e := range evs {
			if e.Event == "coverage" {
				t.Errorf("a coverage event without --coverage")
			}
		}
		test := testEvent(t, evs)
		if !on {
			if test.Schedules != limit || test.Saturated != 0 {
				t.Errorf("rule off: %d schedules, saturated after %d; want %d, not saturated", test.Schedules, test.Saturated, limit)
			}
			continue
		}
		if test.Saturated == 0 || test.Schedules >= limit {
			t.Fatalf("rule on: test event %+v: want stopped saturated before %d schedules", test, limit)
		}
		if test.Exhausted || test.Unproved || test.Outcome() != wire.OutcomeOK || test.Message != "" {
			t.Errorf("rule on: test event %+v: want a test that ran its schedules, not exhausted, no proof, no early stop", test)
		}
		if quiet := test.Schedules - test.Saturated; quiet < wire.SaturationQuiet {
			t.Errorf("stopped %d schedules after the last discovery, want at least %d", quiet, wire.SaturationQuiet)
		}
	}
}

// TestSaturationLeavesAProof: a search that ends with a proof (the
// portfolio's dpor) is exhausted, not saturated, the rule on or off.
func TestSaturationLeavesAProof(t *testing.T) {
	dir := t.TempDir()
	c := &wire.Config{Mode: "explore", Strategy: "portfolio", Schedules: 3000, Seed: 1, Saturate: true,
		TraceDir: filepath.Join(dir, "traces"), Results: filepath.Join(dir, "results.jsonl")}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	x.explore(twoCounters)
	for _, e := range readEvents(t, c.Results) {
		if e.Event == "test" && (!e.Exhausted || e.Saturated != 0) {
			t.Errorf("test event %+v: want exhausted by dpor, not saturated", e)
		}
	}
}

// TestCoverageFresh: a committed schedule counts what no schedule before
// it reached, and a new set of pairs; a repeat counts nothing.
func TestCoverageFresh(t *testing.T) {
	r := newCovRun()
	x := uintptr(unsafe.Pointer(&covObj2))
	write := func() { r.c.touch(r.at(1, "f.go:1", opWrite), x, true) }
	read := func() { r.c.touch(r.at(2, "f.go:2", opRead), x, false) }
	for i, c := range []struct {
		what    string
		touches []func()
		fresh   int
		set     bool
	}{
		{"first schedule (2 points and 1 pair)", []func(){write, read}, 3, true},
		{"the same schedule again", []func(){write, read}, 0, false},
		{"the other order too (1 pair)", []func(){read, write, read}, 1, true},
		{"one pair met before in another set", []func(){read, write}, 0, true},
	} {
		if i > 0 {
			r.c.begin()
		}
		for _, touch := range c.touches {
			touch()
		}
		if fresh, set := r.c.commit(); fresh != c.fresh || set != c.set {
			t.Errorf("%s: %d fresh, new set %v; want %d fresh, new set %v", c.what, fresh, set, c.fresh, c.set)
		}
	}
}
