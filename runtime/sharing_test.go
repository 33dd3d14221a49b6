package runtime

import (
	"os"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// TestSharedSubtests: schedules that pass share subtests, up to
// maxShared each (sharing.go); with -v each has its own.
func TestSharedSubtests(t *testing.T) {
	subtests := map[*testing.T]int{}
	x := check(t, "random", 200, func(t *testing.T) {
		subtests[t]++
		c := Chan(make(chan int))
		Go(func() { Send(c, 1) })
		Recv(c)
	})
	want := (200 + maxShared - 1) / maxShared
	if testing.Verbose() {
		want = 200
	}
	if x.schedules != 200 || len(subtests) != want {
		t.Errorf("%d schedules in %d subtests, want 200 in %d", x.schedules, len(subtests), want)
	}
}

// TestSharedSubtestEndsWhereTheTestLeavesState: an execution that leaves anything
// on testing's T (an environment variable, a temporary directory, a
// cleanup registered with testing, output) ends its subtest, so that the
// next one starts as in a subtest of its own: the variable unset, the
// directory removed, the cleanup run.
func TestSharedSubtestEndsWhereTheTestLeavesState(t *testing.T) {
	const env = "GOSCT_SHARED_TEST_VAR"
	var (
		runs, cleaned int
		dir           string
		subtests      = map[*testing.T]int{}
	)
	check(t, "random", 40, func(t *testing.T) {
		runs++
		subtests[t]++
		if os.Getenv(env) != "" {
			t.Errorf("schedule %d: %s set by an earlier schedule", runs, env)
		}
		if dir != "" {
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("schedule %d: the temporary directory of an earlier one is still there", runs)
			}
		}
		if want := runs / 4; cleaned != want { // one for each run before this one with runs%4 == 3
			t.Errorf("schedule %d: %d cleanups run, want %d", runs, cleaned, want)
		}
		c := Chan(make(chan int))
		Go(func() { Send(c, 1) })
		Recv(c)
		// testing's own methods, as uninstrumented code calls them.
		switch runs % 4 {
		case 1:
			t.Setenv(env, "1")
		case 2:
			dir = t.TempDir()
		case 3:
			t.Cleanup(func() { cleaned++ })
		case 0:
			t.Log("a line of output")
		}
	})
	if runs != 40 || len(subtests) != 40 {
		t.Errorf("%d schedules in %d subtests, want 40 in 40", runs, len(subtests))
	}
}

// TestSharedSubtestFailureKeepsItsNumber: a schedule that fails in a shared
// subtest, after others passed in it, is reported under its own number.
func TestSharedSubtestFailureKeepsItsNumber(t *testing.T) {
	evs := victim(t, "TestVictimFailsFromTheTenth", wire.Config{Strategy: "random", Seed: 1, Schedules: 50})
	b := wantBug(t, evs, kindFailure)
	if b.Schedule != 10 || !strings.Contains(b.Message, "the tenth run") {
		t.Errorf("bug at schedule %d: %s; want schedule 10", b.Schedule, b.Message)
	}
}

var victimRuns int

// TestVictimFailsFromTheTenth fails every run from its tenth on.
func TestVictimFailsFromTheTenth(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		victimRuns++
		c := Chan(make(chan int))
		Go(func() { Send(c, 1) })
		Recv(c)
		if victimRuns >= 10 {
			T(t).Errorf("the tenth run, or a later one")
		}
	})
}

// TestSharedSubtestFreshContext: each schedule of a shared subtest gets a
// t.Context() of its own, live until its cleanups, not the one an earlier
// schedule's cleanups cancelled.
func TestSharedSubtestFreshContext(t *testing.T) {
	subtests := map[*testing.T]bool{}
	check(t, "random", 100, func(t *testing.T) {
		subtests[t] = true
		ctx := TestContext(t)
		if ctx.Err() != nil {
			t.Errorf("the test's context is cancelled at its start: %v", ctx.Err())
		}
		c := Chan(make(chan int))
		Go(func() { Send(c, 1) })
		Recv(c)
	})
	if !testing.Verbose() && len(subtests) == 100 {
		t.Errorf("no subtest shared")
	}
}
