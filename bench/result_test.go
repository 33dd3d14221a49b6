package bench

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
)

func TestFailedScheduleLine(t *testing.T) {
	for line, want := range map[string]bool{
		"    --- FAIL: TestAccount/schedule_12 (0.00s)":        true,
		"--- FAIL: TestX/schedule_3 (0.01s)":                   true,
		"    --- FAIL: TestAccount/schedule_12_replay (0.00s)": false,
		"--- FAIL: TestAccount (0.20s)":                        false,
		"    --- PASS: TestAccount/schedule_1 (0.00s)":         false,
	} {
		if got := failedSchedule.MatchString(line); got != want {
			t.Errorf("%q: match %v, want %v", line, got, want)
		}
	}
}

func TestInterpret(t *testing.T) {
	random, _ := ParseStrategy("random")
	dfs, _ := ParseStrategy("dfs")
	bug := func(s int) wire.Event { return wire.Event{Event: "bug", Kind: "deadlock", Schedule: s, Message: "m"} }
	test := func(n int, exh bool) wire.Event {
		return wire.Event{Event: "test", Schedules: n, ElapsedS: 0.5, Exhausted: exh}
	}
	cases := []struct {
		name  string
		s     Strategy
		o     runOutcome
		check func(*Result) bool
	}{
		{"count", random, runOutcome{events: []wire.Event{bug(9), bug(4), test(100, false)}, failed: 25, exit: 1},
			func(r *Result) bool {
				return r.Found && r.First == 4 && r.Buggy == 25 && r.BuggyPercent() == 25 && r.Err == "" && !r.Budget && r.SchedulesPerS() == 200
			}},
		{"first only", dfs, runOutcome{events: []wire.Event{bug(7), test(7, false)}, failed: 1, exit: 1},
			func(r *Result) bool { return r.Found && r.Buggy == -1 && r.BuggyPercent() == -1 && !r.Budget }},
		{"missed, exhausted", dfs, runOutcome{events: []wire.Event{test(40, true)}},
			func(r *Result) bool { return !r.Found && r.Exhausted && !r.Budget && r.Err == "" }},
		{"budget", dfs, runOutcome{events: []wire.Event{test(40, false)}},
			func(r *Result) bool { return r.Budget }},
		{"crash", random, runOutcome{exit: 2, tail: "panic: boom"},
			func(r *Result) bool { return r.Err != "" && r.Buggy == -1 && !r.Found }},
		{"failed without bug", dfs, runOutcome{events: []wire.Event{test(100, false)}, exit: 1},
			func(r *Result) bool { return r.Err != "" }},
		{"two tests, one exhausted", dfs, runOutcome{events: []wire.Event{{Event: "test", Test: "A", Schedules: 100}, {Event: "test", Test: "B", Schedules: 7, Exhausted: true}}},
			func(r *Result) bool { return !r.Budget && r.Schedules == 107 && !r.Exhausted }},
		{"two tests, one short", dfs, runOutcome{events: []wire.Event{{Event: "test", Test: "A", Schedules: 100}, {Event: "test", Test: "B", Schedules: 7}}},
			func(r *Result) bool { return r.Budget }},
		{"bug that failed no subtest", random, runOutcome{events: []wire.Event{bug(3), test(100, false)}, exit: 1},
			func(r *Result) bool { return r.Found && r.Buggy == -1 }},
	}
	for _, c := range cases {
		r := &Result{Buggy: -1}
		c.o.wall = time.Second
		interpret(r, &c.o, c.s, 100)
		if !c.check(r) {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
}

func TestCheckStop(t *testing.T) {
	early := &Result{Schedules: 1, Budget: true, ExploreS: 0.1, Buggy: -1}
	checkStop(early, 10*time.Second, 100)
	if early.Budget || early.Err == "" {
		t.Errorf("a run that stopped after 0.1s of a 10s budget: %+v", early)
	}
	summed := &Result{Schedules: 130, Budget: true, ExploreS: 0.1, Buggy: -1}
	checkStop(summed, 10*time.Second, 100)
	if summed.Budget || summed.Err != "" {
		t.Errorf("an old result summing an exhausted test with one at the limit: %+v", summed)
	}
	full := &Result{Schedules: 900, Budget: true, ExploreS: 9.95, Buggy: -1}
	checkStop(full, 10*time.Second, 1000)
	if !full.Budget || full.Err != "" {
		t.Errorf("a run that used its budget: %+v", full)
	}
}

func TestTotalsAndFalseAlarms(t *testing.T) {
	ps, err := Load(filepath.Join("testdata", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := ParseStrategies("random,dfs")
	rs := FromList([]*Result{
		{Program: "sctbench/x_bad", Strategy: "random", Found: true, First: 3, Buggy: 10, Schedules: 100, WallS: 1},
		{Program: "sctbench/x_bad", Strategy: "dfs", Buggy: -1, Schedules: 100, WallS: 2},
		{Program: "sctbench/x_bad/fixed", Strategy: "random", Buggy: 0, Schedules: 100},
		{Program: "sctbench/x_bad/fixed", Strategy: "dfs", Found: true, Kind: "leak", First: 5, Buggy: -1},
		{Program: "gobugs/leak", Strategy: "random", Found: true, First: 1, Buggy: 100, Schedules: 100},
		{Program: "gobugs/leak", Strategy: "dfs", Err: "build: x", Buggy: -1},
	})
	tot := Totals(ps, st, rs)
	r, d := tot[0], tot[1]
	if r.SCTBench != 1 || r.SCTBenchN != 1 || r.Go != 1 || r.GoN != 1 || len(r.FalseAlarms) != 0 || r.FixedN != 1 || r.WallS != 1 {
		t.Errorf("random totals %+v", r)
	}
	if d.SCTBench != 0 || d.Go != 0 || d.Errors != 1 || len(d.FalseAlarms) != 1 || d.FalseAlarms[0] != "sctbench/x_bad/fixed" {
		t.Errorf("dfs totals %+v", d)
	}
	fa := FalseAlarms(ps, st, rs)
	if len(fa) != 1 || fa[0].Result.Strategy != "dfs" {
		t.Errorf("false alarms %+v", fa)
	}
	if f, n := PaperFound(ps, "pct3"); f != 1 || n != 1 {
		t.Errorf("PaperFound pct3 = %d/%d", f, n)
	}
	if f, _ := PaperFound(ps, "dfs"); f != 0 {
		t.Errorf("PaperFound dfs = %d, want 0 (null)", f)
	}
}
