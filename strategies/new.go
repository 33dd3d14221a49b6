package strategies

import (
	"fmt"
	"sort"
)

// Options parameterize a strategy. The zero value of a field means "the
// strategy's default".
type Options struct {
	// Seed seeds every random choice. The same seed on the same program
	// explores the same schedules.
	Seed int64
	// Bound is the largest preemption (pb) or delay (db) bound; the bounded
	// strategies explore bounds 0, 1, ... Bound in turn. 0 selects
	// DefaultBound, so that the zero Options are useful; a negative Bound
	// asks for bound 0, the round-robin schedules only.
	Bound int
	// Depth is PCT's bug depth d (default 3).
	Depth int
	// Threads and Steps are initial estimates of PCT's n and k; PCT refines
	// them from the executions it has seen.
	Threads, Steps int
}

// Names lists the strategies New knows, for help texts.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var registry = map[string]func(Options) Strategy{}

// register is called by each strategy's file from init.
func register(name string, f func(Options) Strategy) { registry[name] = f }

// New returns the strategy called name ("random", "pct", "dfs", "pb", "db",
// "dfsrb", "portfolio").
func New(name string, o Options) (Strategy, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown strategy %q (known: %v)", name, Names())
	}
	return f(o), nil
}
