package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
)

// TestVictimShrinkABBA is the lock-order deadlock: one preemption causes it.
// Extra goroutines and channel traffic give a strategy's schedule many
// irrelevant switches.
func TestVictimShrinkABBA(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		var a, b Mutex2
		var wg sync.WaitGroup
		Add(&wg, 4)
		c := Chan(make(chan int, 8))
		for i := 0; i < 2; i++ {
			Go(func() {
				defer Done(&wg)
				for j := 0; j < 3; j++ {
					Send(c, j)
				}
			})
		}
		Go(func() { defer Done(&wg); Lock(&a.mu); Lock(&b.mu); Unlock(&b.mu); Unlock(&a.mu) })
		Go(func() { defer Done(&wg); Lock(&b.mu); Lock(&a.mu); Unlock(&a.mu); Unlock(&b.mu) })
		Wait(&wg)
	})
}

type Mutex2 struct{ mu sync.Mutex }

// TestShrinkABBA: the trace of the deadlock holds a schedule of one
// preemption, says what it was shrunk from, and its steps are causal.
func TestShrinkABBA(t *testing.T) {
	for _, strat := range []string{"random", "pct"} {
		evs := victim(t, "TestVictimShrinkABBA", wire.Config{Strategy: strat, Seed: 5, Schedules: 2000, MinimizeNS: 5e9})
		b := wantBug(t, evs, kindDeadlock)
		tr, err := replay.Read(b.Trace)
		if err != nil {
			t.Fatal(err)
		}
		m := tr.Minimized
		if m == nil || m.To.Preemptions != 1 || b.Size == nil || *b.Size != (wire.Size(m.To)) {
			t.Fatalf("%s: minimized %+v, event size %+v", strat, m, b.Size)
		}
		if !strings.Contains(b.Report, "schedule: "+m.To.String()) || !b.Replayed {
			t.Errorf("%s: the report does not give the schedule's size, or the trace does not replay:\n%s", strat, b.Report)
		}
		if m.From != m.To && !strings.Contains(b.Report, "(shrunk from "+m.From.String()) {
			t.Errorf("%s: the report does not say what it shrank from:\n%s", strat, b.Report)
		}
		for _, err := range replay.CheckSteps(tr) {
			t.Errorf("%s: %v", strat, err)
		}
		// The shrunk trace replays to the same deadlock.
		r := wantBug(t, victim(t, "TestVictimShrinkABBA", wire.Config{Mode: "replay", Trace: b.Trace}), kindDeadlock)
		if !r.Replayed || !strings.Contains(r.Report, "interleaving:") {
			t.Errorf("%s: replay: replayed %v, report:\n%s", strat, r.Replayed, r.Report)
		}
	}
}

// TestVictimFailureOutput fails through t.Errorf on some schedules.
func TestVictimFailureOutput(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		n := 0
		var mu sync.Mutex
		var wg sync.WaitGroup
		Add(&wg, 2)
		for i := 0; i < 2; i++ {
			Go(func() {
				defer Done(&wg)
				Lock(&mu)
				v := n
				Unlock(&mu)
				Lock(&mu)
				n = v + 1
				Unlock(&mu)
			})
		}
		Wait(&wg)
		T(t).Log("n is", n)
		if n != 2 {
			T(t).Errorf("lost an update: n = %d", n)
		}
	})
}

// TestFailureReportCarriesTheOutput: whatever the verbosity (none, -v,
// -v=test2json as go test -json runs it), the report of a failed check says
// what the check said, with its place, and carries the schedule's other
// lines; with -v the test binary still prints every line as it comes.
func TestFailureReportCarriesTheOutput(t *testing.T) {
	for _, flags := range [][]string{nil, {"-test.v"}, {"-test.v=test2json"}} {
		evs, out := victimRun(t, "TestVictimFailureOutput", wire.Config{Strategy: "random", Seed: 1, Schedules: 500}, flags...)
		b := wantBug(t, evs, kindFailure)
		if !strings.Contains(b.Message, "steps_test.go:") || !strings.Contains(b.Message, "lost an update: n = 1") {
			t.Errorf("%v: message %q", flags, b.Message)
		}
		if !strings.Contains(b.Report, "n is 1") || !strings.HasPrefix(b.Key, kindFailure+":steps_test.go:") {
			t.Errorf("%v: key %q, report:\n%s", flags, b.Key, b.Report)
		}
		if strings.Contains(b.Report, "=== ") || strings.Contains(b.Report, "--- FAIL") || strings.Contains(b.Report, "\x16") {
			t.Errorf("%v: testing's status lines in the report:\n%s", flags, b.Report)
		}
		if flags != nil && (!strings.Contains(out, "lost an update: n = 1") || !strings.Contains(out, "--- FAIL: TestVictimFailureOutput/schedule_")) {
			t.Errorf("%v: the test binary's own output lacks the schedule's lines:\n%s", flags, out)
		}
	}
}

// TestVictimRaceThenFailure races, then fails its check.
func TestVictimRaceThenFailure(t *testing.T) {
	victimOnly(t)
	Test(t, func(t *testing.T) {
		n := 0
		done := Chan(make(chan bool))
		Go(func() { Store(&n, Load(&n)+1); Send(done, true) })
		Store(&n, Load(&n)+1)
		Recv(done)
		T(t).Log("the counter is read")
		T(t).Errorf("after the race: n = %d", Load(&n))
	})
}

// TestRaceReportCarriesTheOutput: a race whose test then failed reports
// the race, with the failed check's output.
func TestRaceReportCarriesTheOutput(t *testing.T) {
	skipRace(t)
	for _, flags := range [][]string{nil, {"-test.v"}} {
		evs, _ := victimRun(t, "TestVictimRaceThenFailure", wire.Config{Strategy: "random", Seed: 1, Races: "report"}, flags...)
		b := wantBug(t, evs, "race")
		if !strings.Contains(b.Message, "the test then failed (its output is below)") ||
			!strings.Contains(b.Report, "the counter is read") || !strings.Contains(b.Report, "after the race: n = ") {
			t.Errorf("%v: report:\n%s", flags, b.Report)
		}
		if strings.Count(b.Report, "gosct: race") > 1 {
			t.Errorf("%v: the runtime's own report is in the test's output:\n%s", flags, b.Report)
		}
	}
}

// TestCleanLog: testing's status lines and markers go, the lines keep
// their relative indentation, a long output keeps its last lines.
func TestCleanLog(t *testing.T) {
	raw := "=== RUN   TestX/schedule_1/sub\n\x16=== NAME  TestX/schedule_1\n    a_test.go:3: first\n        second line\n" +
		"    --- FAIL: TestX/schedule_1/sub (0.00s)\n        a_test.go:9: in sub\n"
	if got, want := cleanLog(raw), "a_test.go:3: first\n    second line\n    a_test.go:9: in sub"; got != want {
		t.Errorf("cleanLog = %q, want %q", got, want)
	}
	var long strings.Builder
	for i := 0; i < maxLogLines+10; i++ {
		long.WriteString("    a_test.go:1: line\n")
	}
	if got := strings.Split(cleanLog(long.String()), "\n"); len(got) != maxLogLines+1 || got[0] != "... (10 lines before)" {
		t.Errorf("long output: %d lines, first %q", len(got), got[0])
	}
}
