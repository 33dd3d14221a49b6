package confirm

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/replay"
)

// fixtureTrace reads testdata/NAME.trace.json, the trace gosct wrote for
// the fixture testdata/NAME, with its package moved to where it is.
func fixtureTrace(t *testing.T, name string) (*replay.Trace, Layout) {
	t.Helper()
	return traceAt(t, name, filepath.Join("testdata", name))
}

// traceAt reads testdata/NAME.trace.json with its package moved to dir
// (its fixture, or a twin of it).
func traceAt(t *testing.T, name, dir string) (*replay.Trace, Layout) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var tr replay.Trace
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(data), "TESTDATA", abs)), &tr); err != nil {
		t.Fatal(err)
	}
	return &tr, Layout{Package: tr.Package, Dir: abs, Module: tr.Module, Root: abs}
}

func needGo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs go test")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
}

// TestPlanCountsTheGoroutinesBefore: testdata/forward's bug holds the
// goroutine of the test's second Drop at its select; the first Drop's
// goroutine ran the same select before it. The hold is for the second
// to get there.
func TestPlanCountsTheGoroutinesBefore(t *testing.T) {
	tr, _ := fixtureTrace(t, "forward")
	hs := Plan(tr, false)
	if len(hs) != 1 {
		t.Fatalf("%d holds, want 1: %+v", len(hs), hs)
	}
	h := hs[0]
	if h.At.Pos() != "forward.go:19" || h.At.N != 0 || h.At.Nth != 1 || h.Until == nil || h.Until.G != 0 || h.Until.Nth != 0 {
		t.Errorf("hold of G%d at %s, pass %d, goroutine %d there (until %+v); want the second goroutine at forward.go:19, its first pass, until G0", h.At.G, h.At.Pos(), h.At.N, h.At.Nth, h.Until)
	}
}

// TestConfirmHoldsTheNthGoroutine: under go test, the hold of
// testdata/forward must stop the second Drop's goroutine, not the first
// one to reach the select; holding the first (as gosct confirm did)
// shows nothing: the test passes.
func TestConfirmHoldsTheNthGoroutine(t *testing.T) {
	needGo(t)
	tr, lay := fixtureTrace(t, "forward")
	for _, how := range []How{Targeted, Handshake} {
		r, err := Confirm(context.Background(), tr, Options{Layout: lay, Runs: 4, Timeout: 5 * time.Second, Hows: []How{how}})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Confirmed || r.Same < r.Runs {
			t.Errorf("%s: %s", how, r.Summary(nil))
		}
	}
}

// TestPlansForKeepsTheLastHolds: a schedule with more departures than a
// run has room for is tried by its last holds only: the last 1, 8 and as
// many as fit, of its holds and of its holds with the late goroutines.
func TestPlansForKeepsTheLastHolds(t *testing.T) {
	mk := func(n int) []Hold {
		hs := make([]Hold, n)
		for i := range hs {
			hs[i].Decision = i + 1
		}
		return hs
	}
	full, late := mk(1000), mk(1001)
	plans, note := plansFor(full, late, maxHolds(3*time.Second, 20*time.Millisecond))
	var sizes []int
	for i, p := range plans {
		sizes = append(sizes, len(p))
		if want := 1000 + i%2; p[len(p)-1].Decision != want {
			t.Errorf("plan %d, of %d holds, ends at decision %d, want the last, %d", i, len(p), p[len(p)-1].Decision, want)
		}
	}
	if len(sizes) != 6 || sizes[0] != 1 || sizes[1] != 1 || sizes[2] != 8 || sizes[3] != 8 || sizes[4] != 75 || sizes[5] != 75 {
		t.Errorf("plans of %v holds, want the last 1, 8, 75 of each", sizes)
	}
	if !strings.Contains(note, "1000 times") {
		t.Errorf("note %q", note)
	}
	small, lateSmall := mk(3), mk(4)
	plans, note = plansFor(small, lateSmall, 75)
	if len(plans) != 2 || len(plans[0]) != 3 || len(plans[1]) != 4 || note != "" {
		t.Errorf("a short schedule: plans %v, note %q; want both whole", plans, note)
	}
	plans, note = plansFor(small, mk(100), 75)
	if len(plans) != 2 || len(plans[0]) != 3 || len(plans[1]) != 75 || plans[1][74].Decision != 100 || note != "" {
		t.Errorf("a short schedule with many late goroutines: plans %v, note %q; want it whole, then the last 75 with them", plans, note)
	}
	plans, _ = plansFor(mk(1000), mk(1000), 75)
	if len(plans) != 3 {
		t.Errorf("without late goroutines: %d plans, want 3", len(plans))
	}
}

// TestPlanWakesLate: in testdata/forward's schedule the first Drop's
// goroutine, woken by the sender's send, waits while the sender goes on
// to its next send; parallel Go would run it at once. The late plan holds
// it after its receive, at its select, until the sender gets there. The
// second Drop's goroutine, held at that select by a preemption of the
// schedule, gets no second hold.
func TestPlanWakesLate(t *testing.T) {
	tr, _ := fixtureTrace(t, "forward")
	found, dups := false, 0
	for _, h := range Plan(tr, true) {
		if h.Why == "woken late" && h.At.G == 1 && h.At.Pos() == "forward.go:19" && h.At.N == 0 && h.Until != nil && h.Until.G == 2 && h.Until.Pos() == "forward_test.go:12" {
			found = true
		}
		if h.At.G == 3 && h.At.Pos() == "forward.go:19" {
			dups++
		}
	}
	if !found || dups != 1 {
		t.Errorf("G1 woken late at forward.go:19 until G2 reaches forward_test.go:12: %v; holds of G3 at its select: %d, want 1", found, dups)
	}
}
