package strategies

import (
	"fmt"
	"sort"
	"strings"
)

// Defaults of an exploration, for the command line, the runtime and the
// benchmark alike. The defaults of a strategy's own parameters are next to
// it: DefaultDepth (pct.go), DefaultBound (bounded.go).
const (
	// DefaultStrategy is the strategy of a run that names none.
	DefaultStrategy = "portfolio"
	// DefaultSchedules is the most schedules a test function is explored
	// under when the run sets no limit: most concurrency bugs of the
	// SCTBench and GoBench corpora show within a few hundred schedules,
	// and a package of ordinary tests is then explored in minutes.
	DefaultSchedules = 1000
	// ChangeStrategy is the strategy of a run that checks a change
	// (gosct test --since) and names none.
	ChangeStrategy = "pairwise"
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
	// Guide is the path of the guide file (package static computes it)
	// that guided search steers by; "" leaves it a random walk.
	Guide string
	// Backtrack caps guided search's backtrack points per key sequence
	// (default DefaultBacktrack).
	Backtrack int
	// States makes dpor match states (stateful DPOR, after Cirisci et al.):
	// opt-in, unsound where the runtime's state signature is not the
	// whole state.
	States bool
	// Fragments is the path of the fragments file (WriteFragments) of
	// the change pairwise incremental checking explores.
	Fragments string
	// DFSRB is dfsrb's configuration (ParseDFSRB), or "portfolio" for
	// the paper's portfolio of configurations; "" is DefaultDFSRB.
	DFSRB string
	// Walk makes every Walk-th execution of guided search a random walk
	// (0: DefaultWalk; negative: none, every execution is guided).
	Walk int
}

// Info describes a strategy to the programs that offer it: the command
// line, the benchmark, the runtime. They learn what a strategy can do from
// it alone, never by building one or by its name; TestInfo checks that
// what it says matches the strategy New returns.
type Info struct {
	// Name is the strategy's name on the command line ("pct").
	Name string
	// Summary is a few words for help texts.
	Summary string
	// Systematic strategies can exhaust their search space: when they
	// have, every schedule (within their bound) was explored, which the
	// summary reports as a proof within the model.
	Systematic bool
	// Sampling strategies draw every schedule independently of the others
	// (random, PCT): the share of buggy schedules among many estimates the
	// chance that one schedule finds the bug, which the benchmark reports.
	Sampling bool
	// Reads are the options the strategy takes from the command line's
	// flags, its members' included: the command refuses a flag of an
	// option the strategy does not read (--states, --walks, --target,
	// --dfsrb), computes a guide only for one that reads it, and needs
	// --since for one that reads the fragments of a change.
	Reads Option
	// Members are the strategies a composite strategy (the portfolio)
	// runs in turn, by name; nil for the others.
	Members []string
	// Ranged strategies number their schedules (Seeker): the shards of a
	// search are ranges of schedule numbers, and --schedules counts the
	// whole search's.
	Ranged bool
	// Tree strategies divide their tree of schedules among machines as
	// they search it (Sharder).
	Tree bool
	// Splits: a saved search can be split into parts (Splitter, gosct
	// split).
	Splits bool
	// Resumes: the search can be saved between two executions and
	// resumed (Saver; gosct test --state, --per-process). saver.go checks
	// at compile time that the strategy's type is a Saver.
	Resumes bool
	// New returns the strategy with the given options.
	New func(Options) Strategy
}

// Option is a set of the options of Options that the command line sets
// from flags of their own (Info.Reads).
type Option uint8

const (
	// OptBound is Options.Bound (--bound).
	OptBound Option = 1 << iota
	// OptDepth is Options.Depth (--depth).
	OptDepth
	// OptStates is Options.States (--states).
	OptStates
	// OptWalk is Options.Walk (--walks).
	OptWalk
	// OptGuide is Options.Guide, the guide the command computes with
	// package static before the build (--target steers it).
	OptGuide
	// OptFragments is Options.Fragments, the change the command computes
	// from --since.
	OptFragments
	// OptDFSRB is Options.DFSRB (--dfsrb).
	OptDFSRB
)

// Has reports whether the strategy reads every option of o.
func (i Info) Has(o Option) bool { return i.Reads&o == o }

// Composite reports whether the strategy runs other strategies as its
// members (the portfolio).
func (i Info) Composite() bool { return len(i.Members) > 0 }

var registry = map[string]Info{}

// register is called by each strategy's file from init: one line makes a
// strategy known to the command, the runtime and the benchmark.
func register(i Info) {
	if _, dup := registry[i.Name]; dup || i.Name == "" || i.New == nil {
		panic("strategies: bad or duplicate registration of " + i.Name)
	}
	registry[i.Name] = i
}

// listOrder is the order in which lists for people (messages, the docs)
// name strategies: docs/strategies.md's. TestRegistry checks that it names
// every registered strategy.
var listOrder = []string{"random", "pct", "dfs", "pb", "db", "dfsrb", "guided", "dpor", "pairwise", "portfolio"}

// Listed returns the names of the strategies of which keep is true, in the
// order lists for people name them.
func Listed(keep func(Info) bool) []string {
	var out []string
	for _, n := range listOrder {
		if i, ok := registry[n]; ok && keep(i) {
			out = append(out, n)
		}
	}
	return out
}

// Lookup returns the strategy called name.
func Lookup(name string) (Info, bool) {
	i, ok := registry[name]
	return i, ok
}

// All returns every strategy, by name.
func All() []Info {
	out := make([]Info, 0, len(registry))
	for _, i := range registry {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Names lists the strategies New knows, sorted, for help texts.
func Names() []string {
	var names []string
	for _, i := range All() {
		names = append(names, i.Name)
	}
	return names
}

// New returns the strategy called name.
func New(name string, o Options) (Strategy, error) {
	i, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown strategy %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return i.New(o), nil
}
