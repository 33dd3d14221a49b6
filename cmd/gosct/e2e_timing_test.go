package main

import (
	"strings"
	"testing"
)

// Timing on the fixture testdata/e2emod/timing: a correct test comparing
// clock reads a sleep apart passes every schedule, with timers fired early
// or not; a test that sleeps a millisecond for a goroutine fails only when
// that goroutine stalls, and is reported as timing-dependent, in the
// user's terms, in every output; --timing strict does not report it.
func TestE2ETiming(t *testing.T) {
	dir := fixtureDir(t)
	for _, timing := range []string{"loaded", "strict"} {
		r := runGosct(t, dir, "test", "--json", "--timing", timing, "--strategy", "random", "--schedules", "2000",
			"--run", "TestErrorsExpire", "--trace-dir", t.TempDir(), "./timing")
		if r.code != 0 {
			t.Errorf("--timing %s: TestErrorsExpire, correct, failed:\n%s", timing, r)
		}
	}

	r := runGosct(t, dir, "test", "--json", "--seed", "1", "--run", "TestGiveItAMillisecond", "--trace-dir", t.TempDir(), "./timing")
	bugs := bugEvents(t, r)
	if r.code != exitBug || len(bugs) != 1 {
		t.Fatalf("want one bug:\n%s", r)
	}
	const needs = "needs the goroutine started at timing_test.go:25 to wait 1ms while the test slept at timing_test.go:26"
	b := bugs[0]
	first, _, _ := strings.Cut(b["report"].(string), "\n")
	if b["timing"] != needs || first != "timing/timing_test.go:28: failure, timing-dependent: the test failed: timing_test.go:28: not set after a millisecond ("+needs+")" {
		t.Errorf("timing %q, first line %q", b["timing"], first)
	}
	if size, _ := b["size"].(map[string]any); size["early_firings"] != 1.0 || size["goroutines"] != 2.0 {
		t.Errorf("size %v: want 1 timer fired early, 2 goroutines", size)
	}
	lines := jsonLines(t, r.stdout)
	if sum := lines[len(lines)-1]; sum["timing_dependent_bugs"] != 1.0 || sum["bugs"] != 1.0 {
		t.Errorf("summary %v: want 1 bug, 1 timing-dependent", sum)
	}

	// go test's stream: the schedule's output says it, the attribute carries it.
	g := runGosct(t, dir, "test", "--json=go", "--seed", "1", "--run", "TestGiveItAMillisecond", "--trace-dir", t.TempDir(), "./timing")
	if !strings.Contains(g.stdout, `failure, timing-dependent: the test failed`) || !strings.Contains(g.stdout, `\"timing\":\"`+needs) {
		t.Errorf("go test stream does not say it:\n%s", g)
	}
	// The human report.
	h := runGosct(t, dir, "test", "--seed", "1", "--run", "TestGiveItAMillisecond", "--trace-dir", t.TempDir(), "./timing")
	if !strings.Contains(h.stdout, "timing/timing_test.go:28: failure, timing-dependent: ") || !strings.Contains(h.stdout, "1 bug (1 distinct; 1 timing-dependent)") {
		t.Errorf("report:\n%s", h)
	}

	s := runGosct(t, dir, "test", "--json", "--timing", "strict", "--seed", "1", "--run", "TestGiveItAMillisecond", "--trace-dir", t.TempDir(), "./timing")
	if s.code != 0 || len(bugEvents(t, s)) != 0 {
		t.Errorf("--timing strict reported the timing-dependent bug:\n%s", s)
	}
}

// Timers and tickers that embed time's and are held as interfaces
// (testdata/e2emod/clockwrap, as jonboulle/clockwork makes them): Stop and
// Reset through the interface reach the runtime's model, they neither
// panic on a timer Go's runtime never initialised nor leave the virtual
// timer running (go-co-op/gocron's TestJob_NextRun).
func TestE2ETimerThroughInterface(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "test", "--json", "--seed", "1", "--schedules", "20",
		"--run", "ThroughInterface", "--trace-dir", t.TempDir(), "./clockwrap")
	if r.code != 0 || len(bugEvents(t, r)) != 0 {
		t.Errorf("timers stopped and reset through an interface:\n%s", r)
	}
}

// Clocks read through //go:linkname (testdata/e2emod/linkclock: time.now
// and runtime.nanotime, as go-limiter's internal/fasttime reads them; in a
// dependency module, testdata/uncmod/linkclockdep) are the virtual clock: they see a virtual sleep, and agree with time.Since
// (go-limiter's TestStore_Take failed when its token bucket never
// refilled).
func TestE2ELinknamedClock(t *testing.T) {
	r := runGosct(t, fixtureDir(t), "test", "--json", "--seed", "1", "--schedules", "20",
		"--run", "TestLinknamedClockSeesSleep", "--trace-dir", t.TempDir(), "./linkclock")
	if r.code != 0 || len(bugEvents(t, r)) != 0 {
		t.Errorf("linknamed clocks across a virtual sleep:\n%s", r)
	}
	lines := jsonLines(t, r.stdout)
	if sum := lines[len(lines)-1]; sum["schedules"] != 20.0 {
		t.Errorf("summary %v: want 20 schedules", sum)
	}

	// The same in a dependency module (testdata/uncmod/linkclockdep,
	// replaced by a local directory): instrumented too.
	d := runGosct(t, uncDir(t), "test", "--json", "--seed", "1", "--schedules", "20",
		"--run", "TestDependencyClockSeesSleep", "--trace-dir", t.TempDir(), "./linkuse")
	if d.code != 0 || len(bugEvents(t, d)) != 0 {
		t.Errorf("a dependency's linknamed clock across a virtual sleep:\n%s", d)
	}
}
