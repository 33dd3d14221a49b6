package bench

import "github.com/gosct/gosct/internal/wire"

// Result is one run: one strategy on one program.
type Result struct {
	Program  string `json:"program"` // Program.Dir
	Strategy string `json:"strategy"`
	// Found: the run reported a bug (on a fixed program: a false alarm).
	Found bool `json:"found"`
	// Kind and Message are those of the first bug reported.
	Kind    string `json:"kind,omitempty"`
	Message string `json:"message,omitempty"`
	// First is the schedule (1-based) of the first bug; 0 when none.
	First int `json:"first,omitempty"`
	// Schedules is how many schedules were run.
	Schedules int `json:"schedules"`
	// Buggy counts the buggy schedules, or is -1 when not counted (the run
	// stopped at the first bug).
	Buggy int `json:"buggy"`
	// Exhausted: the strategy explored every schedule it could.
	Exhausted bool `json:"exhausted,omitempty"`
	// Unproved: exhausted, but the strategy says its search may have left
	// schedules out (wire.Event.Unproved).
	Unproved bool `json:"unproved,omitempty"`
	// Budget: the run stopped on the wall-clock budget, before the limit.
	Budget bool `json:"budget,omitempty"`
	// WallS is the binary's wall time, as measured around the process;
	// ExploreS the runtime's own time exploring (without process start).
	WallS    float64 `json:"wall_s"`
	ExploreS float64 `json:"explore_s"`
	// Err is set when the run could not be completed (build failure,
	// crash, no report): such a run counts as not found.
	Err string `json:"error,omitempty"`
	// Size is the size of the first bug's schedule as its trace holds it
	// (shrunk), From the size the strategy found it with (nil: not shrunk).
	Size *wire.Size `json:"size,omitempty"`
	From *wire.Size `json:"from,omitempty"`
	// Traces counts the run's bug traces; StepErrors are the violations
	// of replay.CheckSteps found in them (the first ones).
	Traces     int      `json:"traces,omitempty"`
	StepErrors []string `json:"step_errors,omitempty"`
}

// SchedulesPerS is the exploration rate, from the runtime's own time.
func (r *Result) SchedulesPerS() float64 {
	t := r.ExploreS
	if t <= 0 {
		t = r.WallS
	}
	if t <= 0 {
		return 0
	}
	return float64(r.Schedules) / t
}

// BuggyPercent is the percentage of buggy schedules, or -1 when unknown.
func (r *Result) BuggyPercent() float64 {
	if r.Buggy < 0 || r.Schedules == 0 {
		return -1
	}
	return 100 * float64(r.Buggy) / float64(r.Schedules)
}

// Results indexes results by program directory and strategy name.
type Results map[string]map[string]*Result

// Add records r.
func (rs Results) Add(r *Result) {
	m := rs[r.Program]
	if m == nil {
		m = map[string]*Result{}
		rs[r.Program] = m
	}
	m[r.Strategy] = r
}

// Get returns the result of strategy on program, or nil.
func (rs Results) Get(program, strategy string) *Result {
	return rs[program][strategy]
}

// Total is one strategy's tally.
type Total struct {
	Strategy string
	// SCTBench and Go count the buggy programs found, out of SCTBenchN
	// and GoN programs run.
	SCTBench, SCTBenchN int
	Go, GoN             int
	// FalseAlarms lists the fixed programs reported buggy.
	FalseAlarms []string
	// FixedN is how many fixed programs were run.
	FixedN int
	// Errors counts runs that did not complete.
	Errors int
	// WallS sums the wall time of the strategy's runs.
	WallS float64
}

// Totals tallies each strategy over the programs.
func Totals(ps []*Program, strats []Strategy, rs Results) []Total {
	out := make([]Total, 0, len(strats))
	for _, s := range strats {
		t := Total{Strategy: s.Name}
		for _, p := range ps {
			r := rs.Get(p.Dir, s.Name)
			if r == nil {
				continue
			}
			t.WallS += r.WallS
			if r.Err != "" {
				t.Errors++
			}
			switch {
			case p.IsFixed():
				t.FixedN++
				if r.Found {
					t.FalseAlarms = append(t.FalseAlarms, p.Dir)
				}
			case p.Suite() == "sctbench":
				t.SCTBenchN++
				if r.Found {
					t.SCTBench++
				}
			default:
				t.GoN++
				if r.Found {
					t.Go++
				}
			}
		}
		out = append(out, t)
	}
	return out
}

// FalseAlarm is a bug reported on a correct program.
type FalseAlarm struct {
	Program *Program
	Result  *Result
}

// FalseAlarms lists every bug reported on a fixed program.
func FalseAlarms(ps []*Program, strats []Strategy, rs Results) []FalseAlarm {
	var out []FalseAlarm
	for _, p := range ps {
		if !p.IsFixed() {
			continue
		}
		for _, s := range strats {
			if r := rs.Get(p.Dir, s.Name); r != nil && r.Found {
				out = append(out, FalseAlarm{p, r})
			}
		}
	}
	return out
}
