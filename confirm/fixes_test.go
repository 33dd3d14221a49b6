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
	data, err := os.ReadFile(filepath.Join("testdata", name+".trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(filepath.Join("testdata", name))
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
// run has room for is tried by its last holds only.
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
	for _, p := range plans {
		sizes = append(sizes, len(p))
		if p[len(p)-1].Decision != 1000 {
			t.Errorf("a plan of %d holds ends at decision %d, want the last, 1000", len(p), p[len(p)-1].Decision)
		}
	}
	if len(sizes) != 3 || sizes[0] != 1 || sizes[1] != 8 || sizes[2] != 75 {
		t.Errorf("plans of %v holds, want the last 1, 8, 75", sizes)
	}
	if !strings.Contains(note, "1000 times") {
		t.Errorf("note %q", note)
	}
	small, lateSmall := mk(3), mk(4)
	plans, note = plansFor(small, lateSmall, 75)
	if len(plans) != 2 || len(plans[0]) != 3 || len(plans[1]) != 4 || note != "" {
		t.Errorf("a short schedule: plans %v, note %q; want both whole", plans, note)
	}
}

// TestWaitsForTimer: the bound is go test's own when, after the last
// hold, the schedule fires a timer nothing could run before.
func TestWaitsForTimer(t *testing.T) {
	tr := &replay.Trace{Steps: []replay.Step{
		{Decision: 3, G: -1, Op: "timer chan fires early: G1 waits 1ms (stalled)", Early: true},
		{Decision: 9, G: -1, Op: "timer fires", Pos: "a_test.go:7", Child: 2},
	}}
	for _, c := range []struct {
		last int
		want bool
	}{{1, true}, {8, true}, {9, false}} {
		if got := waitsForTimer(tr, []Hold{{Decision: c.last}}); got != c.want {
			t.Errorf("last hold at decision %d: %v, want %v", c.last, got, c.want)
		}
	}
	tr.Steps = tr.Steps[:1]
	if waitsForTimer(tr, []Hold{{Decision: 1}}) {
		t.Errorf("an early firing (a hold of its own) counted as a wait")
	}
	a := Attempt{How: Sleep, Holds: 1, Runs: 4, Other: map[string]int{"panic: test timed out after 3s": 3, "x_test.go:3: no": 1}}
	if a.timedOut() != 3 {
		t.Errorf("timedOut %d, want 3", a.timedOut())
	}
}

// TestLeakCheckWaitsForLateGoroutines: testdata/lateleak's goroutine
// gets to its leaking send 1.5 s after the test returns, when its timer
// fires: the leak check must still be looking then.
func TestLeakCheckWaitsForLateGoroutines(t *testing.T) {
	tr, lay := fixtureTrace(t, "lateleak")
	if !timersAfterTest(tr) {
		t.Fatalf("the trace's timer fires after the test returns: %+v", tr.Steps)
	}
	needGo(t)
	r, err := Confirm(context.Background(), tr, Options{Layout: lay, Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Confirmed || r.Same != r.Runs || !r.Unprompted {
		t.Errorf("%s", r.Summary(nil))
	}
	if r.Timeout < minTimeout+leakTimerWait {
		t.Errorf("each run bounded at %s: the check's wait is not in the bound", r.Timeout)
	}
}

// TestPlaceCountsPassesNotSteps: an operation that blocks and is resumed
// is two steps of the trace but one pass of its statement, which is what
// the inserted call counts; suture's removal goroutine, held at its
// select's resumption, was counted at pass 1 and never held.
func TestPlaceCountsPassesNotSteps(t *testing.T) {
	tr := &replay.Trace{
		Stacks: []string{"example.com/p.f\n\ta.go:5\n"},
		Steps: []replay.Step{
			{Decision: 1, G: 1, Op: "select", Pos: "a.go:5", Stack: 1, Blocked: "select"},
			{Decision: 2, G: 0, Op: "chan send", Pos: "a_test.go:9"},
			{Decision: 3, G: 1, Op: "select", Pos: "a.go:5", Stack: 1},
			{Decision: 4, G: 1, Op: "select", Pos: "a.go:5", Stack: 1},
		},
	}
	s := newSched(tr)
	for k, want := range []int{0, -1, 0, 1} {
		if want < 0 {
			continue
		}
		if p := s.place(k); p.N != want || p.Nth != 0 {
			t.Errorf("step %d: pass %d (goroutine %d there), want pass %d of the first", k, p.N, p.Nth, want)
		}
	}
}
