package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gosct/gosct/strategies"
)

// Strategy is one column of the benchmark: a gosct strategy and its
// parameters.
type Strategy struct {
	// Name is the column name: the strategy's name, or pct1..pct3 for PCT
	// with depth d.
	Name string
	// Strategy and Depth go into the runtime's configuration.
	Strategy string
	Depth    int
	// States is dpor's state matching (the "dpor-states" column).
	States bool
	// CountBuggy runs the whole schedule limit, not stopping at the first
	// bug, to measure the fraction of buggy schedules: for the sampling
	// strategies (random, PCT), as the paper reports it for the
	// randomized techniques only.
	CountBuggy bool
	// Guide gives the strategy the static analysis's guide: guided search
	// steers by it, and the portfolio then has guided search as a member
	// ("portfolio-unguided" is the portfolio without it).
	Guide bool
	// DFSRB is dfsrb's configuration ("dfsrb-rb3": rb3, the paper's
	// Table 4; "dfsrb-portfolio": its portfolio).
	DFSRB string
	// Walk is guided search's Options.Walk ("guided-nowalk": -1, every
	// execution a descent, as in the thesis).
	Walk int
}

// paperColumns are the columns of the techniques of the SCTBench paper, in
// its order; the full benchmark runs them first.
var paperColumns = []string{"random", "pct1", "pct2", "pct3", "dfs", "pb", "db"}

// DefaultStrategies returns the columns of the full benchmark: the paper's
// techniques, then every other registered strategy by name, the default
// strategy last.
func DefaultStrategies() []string {
	cols := append([]string(nil), paperColumns...)
	for _, n := range strategies.Names() {
		if _, err := ParseStrategy(n); err == nil && n != strategies.DefaultStrategy && n != "pct" && !contains(cols, n) {
			cols = append(cols, n)
		}
	}
	if i := slices.Index(cols, "dpor"); i >= 0 {
		cols = slices.Insert(cols, i+1, "dpor-states")
	}
	return append(cols, strategies.DefaultStrategy)
}

// ParseStrategy turns a column name into a Strategy: the name of a
// registered strategy, "pctD" for PCT with depth D ("pct" is PCT with
// the default depth, column pct3), "dpor-states" for dpor --states,
// "dfsrb-NAME" for dfsrb --dfsrb NAME (rb1..rb10, portfolio),
// "guided-nowalk" for guided --walks 0, or "portfolio-unguided".
func ParseStrategy(name string) (Strategy, error) {
	if name == "dpor-states" {
		// dpor matching states (--states): a column of its own.
		return Strategy{Name: name, Strategy: "dpor", States: true}, nil
	}
	base, depth := name, 0
	if d, err := strconv.Atoi(strings.TrimPrefix(name, "pct")); strings.HasPrefix(name, "pct") && err == nil && d >= 1 && "pct"+strconv.Itoa(d) == name {
		base, depth = "pct", d
	}
	if spec, ok := strings.CutPrefix(name, "dfsrb-"); ok {
		if err := strategies.CheckDFSRB(spec); err != nil || strings.ContainsAny(spec, ",=") {
			return Strategy{}, fmt.Errorf("unknown strategy %q: dfsrb-NAME wants a named configuration (rb1 to rb%d, portfolio)", name, len(strategies.DFSRBPresets))
		}
		return Strategy{Name: name, Strategy: "dfsrb", DFSRB: spec}, nil
	}
	if name == "guided-nowalk" {
		// Guided search without its random walks: the thesis's.
		return Strategy{Name: name, Strategy: "guided", Guide: true, Walk: -1}, nil
	}
	if name == "portfolio-unguided" {
		// The portfolio without the guide, hence without guided
		// search: to measure what the guide adds to it.
		return Strategy{Name: name, Strategy: "portfolio"}, nil
	}
	info, ok := strategies.Lookup(base)
	if !ok {
		return Strategy{}, fmt.Errorf("unknown strategy %q (known: %s, and pctD for PCT with depth D)", name, strings.Join(strategies.Names(), ", "))
	}
	if needsChange(info) {
		return Strategy{}, fmt.Errorf("strategy %q checks a change (gosct test --since REV) and the benchmark has none to give it: without one it runs a single non-preemptive schedule, which measures nothing", name)
	}
	if base == "pct" && depth == 0 {
		depth = strategies.DefaultDepth
		name = "pct" + strconv.Itoa(depth)
	}
	// Guided search and the portfolio get the guide, as from the command.
	return Strategy{Name: name, Strategy: base, Depth: depth, CountBuggy: info.Sampling, Guide: base == "guided" || base == "portfolio"}, nil
}

// needsChange reports whether a strategy explores the change a run is
// given (the fragments of gosct test --since): the benchmark gives none,
// so it neither runs such a strategy by default nor gives it a column.
func needsChange(info strategies.Info) bool { return info.Name == "pairwise" }

// needsGuide reports whether a strategy steers by the static analysis's
// guide, which the build then computes.
func (s Strategy) needsGuide() bool { return s.Guide }

// ParseStrategies parses a comma-separated list of column names.
func ParseStrategies(list string) ([]Strategy, error) {
	var out []Strategy
	seen := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		s, err := ParseStrategy(n)
		if err != nil {
			return nil, err
		}
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no strategy given")
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
