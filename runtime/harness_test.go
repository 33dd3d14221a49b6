package runtime

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// Tests of the runtime come in two kinds.
//
// Programs that must pass under every schedule run in process: check
// explores them and fails the test if any schedule finds a bug.
//
// Programs with a bug run in a child process (a failing schedule fails its
// test, and the child's go test output is not ours): victim starts this test
// binary again on one TestVictim... function with GOSCT_CONFIG set, exactly
// as the gosct command does, and returns the events the runtime wrote.

// check explores body under the named strategy for n schedules and returns
// the explorer, for its counters. Any bug fails t.
func check(t *testing.T, strategy string, n int, body func(*testing.T)) *explorer {
	t.Helper()
	c := &wire.Config{Mode: "explore", Strategy: strategy, Schedules: n, Seed: 1, TraceDir: t.TempDir()}
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	// The model's own properties (virtual instants, timers that must not
	// fire) are checked without the charge of real computing time, which
	// a loaded machine inflates; the charge has its own tests (victims, in
	// a process of their own).
	x.set.noStallCharge = true
	x.explore(body)
	return x
}

// wantProof fails t unless x exhausted its schedules with no bug and no
// schedule that ran code outside the scheduler's control.
func wantProof(t *testing.T, x *explorer) {
	t.Helper()
	if !x.exhausted || x.uncontrolled != 0 || x.bugs != 0 {
		t.Errorf("exhausted %v, %d schedules (%d with uncontrolled code), %d bugs", x.exhausted, x.schedules, x.uncontrolled, x.bugs)
	}
}

// victimEnv marks the child process of victim.
const victimEnv = "GOSCT_RUNTIME_VICTIM"

// victimOnly skips a TestVictim function unless victim runs it.
func victimOnly(t *testing.T) {
	if os.Getenv(victimEnv) == "" {
		t.Skip("a program with a bug; run by the test that checks it")
	}
}

// victim runs the test function name in a child process under c and
// returns the events of the results file.
func victim(t *testing.T, name string, c wire.Config) []wire.Event {
	t.Helper()
	evs, _ := victimRun(t, name, c)
	return evs
}

// victimRun is victim with go test flags for the child (-test.v...); it
// also returns the child's output.
func victimRun(t *testing.T, name string, c wire.Config, flags ...string) ([]wire.Event, string) {
	t.Helper()
	dir := t.TempDir()
	c.Results = filepath.Join(dir, "results.jsonl")
	c.TraceDir = filepath.Join(dir, "traces")
	if c.Mode == "" {
		c.Mode = "explore"
	}
	if c.Schedules == 0 {
		c.Schedules = 200
	}
	cfg, _ := json.Marshal(c)
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^" + name + "$", "-test.count=1"}, flags...)...)
	cmd.Env = append(os.Environ(), victimEnv+"=1", wire.EnvConfig+"="+string(cfg))
	out, _ := cmd.CombinedOutput()
	evs := readEvents(t, c.Results)
	if len(evs) == 0 {
		t.Fatalf("%s wrote no events; output:\n%s", name, out)
	}
	return evs, string(out)
}

func readEvents(t *testing.T, path string) []wire.Event {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var evs []wire.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e wire.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("bad event %q: %v", sc.Text(), err)
		}
		evs = append(evs, e)
	}
	return evs
}

// testEvent returns the "test" event of evs, and fails t on a bug event
// (the programs of the tests that use it have none) or when there is no
// test event.
func testEvent(t *testing.T, evs []wire.Event) *wire.Event {
	t.Helper()
	var test *wire.Event
	for _, e := range evs {
		switch e.Event {
		case "test":
			test = &e
		case "bug":
			t.Errorf("bug: %s", e.Message)
		}
	}
	if test == nil {
		t.Fatal("no test event")
	}
	return test
}

// bugs returns the bug events.
func bugs(evs []wire.Event) []wire.Event {
	var out []wire.Event
	for _, e := range evs {
		if e.Event == "bug" {
			out = append(out, e)
		}
	}
	return out
}

// wantBug fails t unless the events hold a bug of the kind.
func wantBug(t *testing.T, evs []wire.Event, kind string) wire.Event {
	t.Helper()
	for _, e := range bugs(evs) {
		if e.Kind == kind {
			return e
		}
	}
	t.Fatalf("no %s bug in %+v", kind, evs)
	return wire.Event{}
}

var _ = strategies.Goroutine
