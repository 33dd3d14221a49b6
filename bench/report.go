package bench

import (
	"fmt"
	"sort"
	"time"
)

// Report is a benchmark run: its configuration and results. It is what
// --raw writes and --from reads back.
type Report struct {
	Programs   []*Program    `json:"-"`
	Strategies []Strategy    `json:"-"`
	Schedules  int           `json:"schedules"`
	Seed       int64         `json:"seed"`
	Budget     time.Duration `json:"budget_ns"`
	Jobs       int           `json:"jobs"`
	Command    string        `json:"command"`
	Machine    string        `json:"machine"`
	Started    string        `json:"started"`
	// WallS is the whole benchmark's wall time, builds included.
	WallS float64 `json:"wall_s"`
	// source, if set, says in a section written on its own (--exhaustion)
	// what made it.
	source string
	List   []*Result `json:"results"`
	// Notes is markdown appended to the report (the human reading of the
	// figures).
	Notes string `json:"-"`
	// minimizedCmd is the command of a --minimized-section run.
	minimizedCmd string

	results Results
}

// List returns the results sorted by program and strategy.
func (rs Results) List() []*Result {
	var out []*Result
	for _, m := range rs {
		for _, r := range m {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Program != out[j].Program {
			return out[i].Program < out[j].Program
		}
		return out[i].Strategy < out[j].Strategy
	})
	return out
}

// FromList indexes a list of results.
func FromList(l []*Result) Results {
	rs := Results{}
	for _, r := range l {
		rs.Add(r)
	}
	return rs
}

// Check lists what makes the benchmark fail as a test: a run that missed
// a known bug, a bug reported on a fixed program, a run that errored.
func (rep *Report) Check() []string {
	rs := rep.res()
	var out []string
	for _, p := range rep.Programs {
		for _, s := range rep.Strategies {
			r := rs.Get(p.Dir, s.Name)
			switch {
			case r == nil:
				out = append(out, fmt.Sprintf("%s: %s did not run", p.Dir, s.Name))
			case r.Err != "":
				out = append(out, fmt.Sprintf("%s: %s: %s", p.Dir, s.Name, firstLine(r.Err)))
			case p.IsFixed() && r.Found:
				out = append(out, fmt.Sprintf("%s: %s reported a %s on a correct program (schedule %d): %s", p.Dir, s.Name, r.Kind, r.First, firstLine(r.Message)))
			case !p.IsFixed() && !r.Found:
				out = append(out, fmt.Sprintf("%s: %s missed the %s in %d schedules", p.Dir, s.Name, p.Kind, r.Schedules))
			}
			if r != nil {
				for _, e := range r.StepErrors {
					out = append(out, fmt.Sprintf("%s: %s: a trace's steps contradict causality: %s", p.Dir, s.Name, e))
				}
			}
		}
	}
	return out
}

func (rep *Report) res() Results {
	if rep.results == nil {
		rep.results = FromList(rep.List)
	}
	return rep.results
}

// paperColumn maps a strategy column to the paper's technique, "" when the
// paper has none.
func paperColumn(name string) string {
	for _, t := range paperTechniques {
		if t.column == name {
			return t.paper
		}
	}
	return ""
}

// paperFirst is the paper's schedules-to-first-bug of technique col, nil
// when not found.
func (p *Paper) first(col string) *int {
	switch col {
	case "rand":
		return p.Rand
	case "pct1":
		return p.PCT1
	case "pct2":
		return p.PCT2
	case "pct3":
		return p.PCT3
	case "dfs":
		return p.DFS
	case "ipb":
		return p.IPB
	case "idb":
		return p.IDB
	}
	return nil
}

// buggy is the paper's count of buggy schedules for a randomized
// technique, -1 when the paper gives none.
func (p *Paper) buggy(col string) int {
	switch col {
	case "rand":
		return p.RandBuggy
	case "pct1":
		return p.PCT1Buggy
	case "pct2":
		return p.PCT2Buggy
	case "pct3":
		return p.PCT3Buggy
	}
	return -1
}

// PaperFound counts the programs whose bug the paper's technique col found.
func PaperFound(ps []*Program, col string) (found, n int) {
	for _, p := range ps {
		if p.Paper == nil || p.IsFixed() {
			continue
		}
		n++
		if p.Paper.first(col) != nil {
			found++
		}
	}
	return found, n
}
