package bench

import (
	"fmt"
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

// paperTechniques are the techniques of the SCTBench paper, in its order,
// each with the column that runs it here and its name in the paper's
// tables (Paper); the full benchmark runs them first.
var paperTechniques = []struct{ column, paper string }{
	{"random", "rand"}, {"pct1", "pct1"}, {"pct2", "pct2"}, {"pct3", "pct3"}, {"dfs", "dfs"}, {"pb", "ipb"}, {"db", "idb"},
}

// paperColumns are the columns of paperTechniques.
var paperColumns = func() []string {
	var out []string
	for _, t := range paperTechniques {
		out = append(out, t.column)
	}
	return out
}()

// DefaultStrategies returns the columns of the full benchmark: the paper's
// techniques, then every other registered strategy by name (followed by
// its -states column when it matches states), the default strategy last.
func DefaultStrategies() []string {
	cols := append([]string(nil), paperColumns...)
	for _, i := range strategies.All() {
		// A strategy whose bare name is a column already (pct: pct3)
		// comes once.
		if s, err := ParseStrategy(i.Name); err == nil && i.Name != strategies.DefaultStrategy && !contains(cols, s.Name) {
			cols = append(cols, i.Name)
			if i.Has(strategies.OptStates) {
				cols = append(cols, i.Name+"-states")
			}
		}
	}
	return append(cols, strategies.DefaultStrategy)
}

// ParseStrategy turns a column name into a Strategy: the name of a
// registered strategy, or a variant of one, by the options it reads
// (strategies.Info): "pctD" for PCT with depth D ("pct" is PCT with the
// default depth, column pct3), "dpor-states" for dpor --states,
// "dfsrb-NAME" for dfsrb --dfsrb NAME (rb1..rb10, portfolio),
// "guided-nowalk" for guided --walks 0, or "portfolio-unguided".
func ParseStrategy(name string) (Strategy, error) {
	base, depth := name, 0
	for _, i := range strategies.All() {
		switch {
		case i.Has(strategies.OptStates) && name == i.Name+"-states":
			// Matching states (--states): a column of its own.
			return Strategy{Name: name, Strategy: i.Name, States: true}, nil
		case i.Has(strategies.OptDepth):
			if d, err := strconv.Atoi(strings.TrimPrefix(name, i.Name)); strings.HasPrefix(name, i.Name) && err == nil && d >= 1 && i.Name+strconv.Itoa(d) == name {
				base, depth = i.Name, d
			}
		}
	}
	for _, i := range strategies.All() {
		if !i.Has(strategies.OptDFSRB) {
			continue
		}
		if spec, ok := strings.CutPrefix(name, i.Name+"-"); ok {
			if err := strategies.CheckDFSRB(spec); err != nil || strings.ContainsAny(spec, ",=") {
				return Strategy{}, fmt.Errorf("unknown strategy %q: %s-NAME wants a named configuration (rb1 to rb%d, portfolio)", name, i.Name, len(strategies.DFSRBPresets))
			}
			return Strategy{Name: name, Strategy: i.Name, DFSRB: spec}, nil
		}
	}
	for _, i := range strategies.All() {
		switch {
		case i.Has(strategies.OptWalk|strategies.OptGuide) && !i.Composite() && name == i.Name+"-nowalk":
			// Guided search without its random walks: the thesis's.
			return Strategy{Name: name, Strategy: i.Name, Guide: true, Walk: -1}, nil
		case i.Has(strategies.OptGuide) && i.Composite() && name == i.Name+"-unguided":
			// The portfolio without the guide, hence without guided
			// search: to measure what the guide adds to it.
			return Strategy{Name: name, Strategy: i.Name}, nil
		}
	}
	info, ok := strategies.Lookup(base)
	if !ok {
		var depths []string
		for _, i := range strategies.All() {
			if i.Has(strategies.OptDepth) {
				depths = append(depths, fmt.Sprintf(", and %sD for %s with depth D", i.Name, strings.ToUpper(i.Name)))
			}
		}
		return Strategy{}, fmt.Errorf("unknown strategy %q (known: %s%s)", name, strings.Join(strategies.Names(), ", "), strings.Join(depths, ""))
	}
	if needsChange(info) {
		return Strategy{}, fmt.Errorf("strategy %q checks a change (gosct test --since REV) and the benchmark has none to give it: without one it runs a single non-preemptive schedule, which measures nothing", name)
	}
	if info.Has(strategies.OptDepth) && depth == 0 {
		depth = strategies.DefaultDepth
		name = base + strconv.Itoa(depth)
	}
	// The strategies that steer by a guide get it, as from the command.
	return Strategy{Name: name, Strategy: base, Depth: depth, CountBuggy: info.Sampling, Guide: info.Has(strategies.OptGuide)}, nil
}

// needsChange reports whether a strategy explores the change a run is
// given (the fragments of gosct test --since): the benchmark gives none,
// so it neither runs such a strategy by default nor gives it a column.
func needsChange(info strategies.Info) bool { return info.Has(strategies.OptFragments) }

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
