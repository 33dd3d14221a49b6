package bench

import (
	"fmt"
	"strings"
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
	// CountBuggy runs the whole schedule limit, not stopping at the first
	// bug, to measure the fraction of buggy schedules (the paper reports it
	// for the randomized techniques only).
	CountBuggy bool
}

// DefaultStrategies are the columns of the full benchmark.
var DefaultStrategies = []string{"random", "pct1", "pct2", "pct3", "dfs", "pb", "db", "dfsrb", "portfolio"}

// ParseStrategy turns a column name into a Strategy: "pctD" is PCT with
// depth D, "pct" PCT with the default depth 3; random and PCT count buggy
// schedules.
func ParseStrategy(name string) (Strategy, error) {
	switch name {
	case "random":
		return Strategy{Name: name, Strategy: name, CountBuggy: true}, nil
	case "pct":
		return Strategy{Name: "pct3", Strategy: "pct", Depth: 3, CountBuggy: true}, nil
	case "dfs", "pb", "db", "dfsrb", "portfolio":
		return Strategy{Name: name, Strategy: name}, nil
	}
	if strings.HasPrefix(name, "pct") {
		var d int
		if _, err := fmt.Sscanf(name, "pct%d", &d); err == nil && d >= 1 && fmt.Sprintf("pct%d", d) == name {
			return Strategy{Name: name, Strategy: "pct", Depth: d, CountBuggy: true}, nil
		}
	}
	return Strategy{}, fmt.Errorf("unknown strategy %q (known: random, pct1, pct2, pct3, dfs, pb, db, dfsrb, portfolio)", name)
}

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
