package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gosct/gosct/strategies"
	"github.com/spf13/pflag"
)

// defaultBudget is the wall-clock budget of a test function, chosen so that
// a run over a package of ordinary tests finishes in minutes. The other
// defaults (strategy, schedules, depth, bound) are the strategies
// package's.
const defaultBudget = time.Minute

// defaultRunBudget is the exploration time of a whole run (--run-budget),
// shared among its test functions: a run over a module's ./... ends in
// minutes however many tests it has (docs/strategies.md, "A run's budget").
const defaultRunBudget = 5 * time.Minute

// defaultMinimize bounds the shrinking of a bug's schedule: most shrink in
// a few dozen runs of the test, well within it (docs/results.md).
const defaultMinimize = 5 * time.Second

// errHelp is returned by the parsers for --help: usage goes to stdout and the
// status is 0.
var errHelp = errors.New("help requested")

// usageError is bad input on the command line: exit 2 with the message and
// a hint.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// printUsage answers a command's --help: its usage text, then its flags,
// on stdout, and exit status 0.
func printUsage(stdout io.Writer, usage string, fs *pflag.FlagSet) int {
	fmt.Fprint(stdout, usage)
	fs.SetOutput(stdout)
	fs.PrintDefaults()
	return exitOK
}

// testOptions is the parsed command line of `gosct test`.
type testOptions struct {
	strategy  string
	schedules int
	budget    time.Duration
	runBudget time.Duration
	seed      int64
	seedSet   bool
	bound     int
	states    bool
	depth     int
	run       string
	traceDir  string
	// json is gosct's own JSON stream (--json, --json=gosct), goJSON go
	// test's (--json=go).
	json      bool
	goJSON    bool
	jsonMode  string
	keepGoing bool
	deps      bool
	// depsSet: --deps was given; without it a build that fails with the
	// dependencies instrumented is retried without them.
	depsSet  bool
	maxSteps int
	races    string
	// uncontrolledWait bounds the wait for goroutines in uncontrolled
	// code (0: the runtime's default).
	uncontrolledWait time.Duration
	// checkReplay re-runs the schedules that depended on uncontrolled
	// code to count those that replay (a measurement).
	checkReplay bool
	// minimize bounds the shrinking of each new bug's schedule (0: off).
	minimize time.Duration
	// timerEarly and leakGrace are the time model's knobs, as given ("":
	// the runtime's defaults).
	timerEarly, leakGrace string
	// timing is --timing: "loaded" (timers fired early too, their bugs
	// labelled timing-dependent) or "strict" (none: --timer-early 0).
	timing  string
	verbose bool
	// state is the directory of saved searches; perProcess runs every
	// schedule in a fresh process.
	state      string
	perProcess bool
	// confirm shows every new bug under plain go test (gosct confirm).
	confirm bool
	// checkDeterminism runs every schedule twice; controlOff turns
	// controls of sources of nondeterminism off (hidden: for testing the
	// check).
	checkDeterminism bool
	controlOff       []string
	// shard is --shard as given ("2/8", "env", "env/8"); shardIndex
	// (1-based) and shards what it says, 0 without it; shardBy is --shard-by;
	// results is --results.
	shard      string
	shardIndex int
	shards     int
	shardBy    string
	results    string
	// by is what --shard divides, once the packages are known: "tests"
	// or "schedules".
	by string
	// annotations are the CI annotation formats asked for, each with the
	// file it goes to ("" for the default); coverage is the file of the
	// exploration's coverage report ("" for none).
	annotations []annotationSpec
	annotate    []string
	coverage    string
	// targets are --target file:line, for guided search.
	targets []string
	// since is --since REV: check the change since REV pairwise
	// (since.go); strategySet says --strategy was given.
	since       string
	strategySet bool
	// dfsrb is --dfsrb: dfsrb's configuration ("" the default); walks
	// is --walks as strategies.Options.Walk takes it (-1: none).
	dfsrb string
	walks int
	// saturate applies the saturation rule (wire.Saturation): on in a
	// default run (no --schedules, --strategy or --since), or as
	// --saturate says.
	saturate bool

	packages []string
	gotest   goTestFlags
}

func newTestFlagSet(o *testOptions) *pflag.FlagSet {
	fs := pflag.NewFlagSet("gosct test", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.StringVar(&o.strategy, "strategy", strategies.DefaultStrategy, "search strategy: "+strings.Join(strategies.Names(), ", ")+" (below)")
	fs.IntVar(&o.schedules, "schedules", strategies.DefaultSchedules, "most schedules per test function")
	fs.DurationVar(&o.budget, "budget", defaultBudget, "wall-clock budget per test function (0: none)")
	fs.DurationVar(&o.runBudget, "run-budget", defaultRunBudget, "exploration time of the whole run, shared among its test functions: each takes an equal share of what is left, the time one does not use goes to the next (0: none)")
	fs.BoolVar(&o.saturate, "saturate", true, "stop a test once its sampled schedules have stopped reaching new pairs of conflicting operations (coverage saturated; no proof); on unless --schedules, --since or a --strategy other than the default is given")
	fs.Int64Var(&o.seed, "seed", 0, "seed; the same seed on the same code explores the same schedules (default: random, printed)")
	fs.IntVar(&o.bound, "bound", 0, fmt.Sprintf("pb/db (and the portfolio's db): the largest bound, explored iteratively from 0 (default %d); dpor: a preemption bound (default none)", strategies.DefaultBound))
	fs.IntVar(&o.depth, "depth", strategies.DefaultDepth, "pct: the bug depth d")
	fs.StringVar(&o.dfsrb, "dfsrb", "", "dfsrb: its configuration, a name (rb1 to rb10, the paper's ten best, rb1 the default; portfolio) or the paper's tuple thb,thm,thr,stg,rtb,rtc, then budget=N, order=random (docs/strategies.md)")
	fs.BoolVar(&o.states, "states", false, "dpor: match states (prunes schedules that reach a state explored before; unsound where the state signature misses state, see docs/strategies.md)")
	fs.StringVar(&o.run, "run", "", "which tests, as in go test -run")
	fs.StringVar(&o.traceDir, "trace-dir", "", "where traces are written (default: the user cache directory, gosct/traces)")
	fs.StringVar(&o.jsonMode, "json", "", "JSON on stdout: gosct's own events, one object per line (--json, --json=gosct), or go test -json's stream (--json=go)")
	fs.Lookup("json").NoOptDefVal = "gosct"
	fs.BoolVar(&o.keepGoing, "keep-going", false, "go on after a test's first bug")
	fs.BoolVar(&o.deps, "deps", true, "also instrument the packages of dependency modules (--deps=false: leave them uncontrolled)")
	fs.IntVar(&o.maxSteps, "max-steps", 0, "scheduling steps of one execution: past them a spin is a livelock, other work stops the test as not explored (default: the runtime's)")
	fs.DurationVar(&o.uncontrolledWait, "uncontrolled-wait", 0, "how long an execution waits for goroutines of the test blocked in uncontrolled code before it ends with \"could not complete\" (default 10s)")
	fs.BoolVar(&o.checkReplay, "check-replay", false, "run every schedule that depended on uncontrolled code twice and count those that replay (a measurement; in --json test events)")
	fs.DurationVar(&o.minimize, "minimize", defaultMinimize, "how long to shrink each new bug's schedule before its trace is written: fewest preemptions, then steps, then goroutines (0: keep the schedule as found)")
	fs.StringVar(&o.timerEarly, "timer-early", "", "timers due within this much of the work done may fire at any scheduling point, at the strategy's choice; 0: only when every goroutine is blocked (default 1ms)")
	fs.StringVar(&o.timing, "timing", "loaded", "loaded: also report the bugs that need a goroutine stalled while a timer fires early, as on a loaded machine, labelled timing-dependent; strict: only the bugs that need no timer fired early (--timer-early 0)")
	fs.StringVar(&o.leakGrace, "leak-grace", "", "virtual time the goroutines a test leaves behind go on, timers firing, before the leak check (default 10m)")
	fs.StringVar(&o.races, "races", "report", "data races: report (the default: a race is a bug; every access stays a scheduling point), off, or sync (scheduling points only at synchronization, stop at the first race)")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "print every test's result and the test binaries' output")
	fs.StringVar(&o.state, "state", "", "directory of saved searches: each test resumes the search saved there and saves it again (periodically and when it stops)")
	fs.BoolVar(&o.confirm, "confirm", false, "show every new bug under plain go test with delays inserted where its schedule departs from Go's (gosct confirm), and say so on its first line")
	fs.BoolVar(&o.perProcess, "per-process", false, "run every schedule in a fresh process, for tests that cannot run twice in one (package-level state, sync.Once, init goroutines, os.Exit)")
	fs.BoolVar(&o.checkDeterminism, "check-determinism", false, "run every schedule twice and report the first difference between the two runs, with its likely source")
	fs.StringArrayVar(&o.annotate, "annotations", nil, "CI annotations, one per distinct bug: github (workflow commands on stdout), gitlab (code quality report, gl-code-quality-report.json); FORMAT=FILE writes them to FILE")
	fs.StringVar(&o.coverage, "coverage", "", "write what the exploration reached to FILE: per test, the scheduling points reached and the orders tried of each pair of conflicting points")
	fs.StringSliceVar(&o.controlOff, "control-off", nil, "turn controls of sources of nondeterminism off: rand, maps, time, goroutines, crypto (for testing --check-determinism)")
	fs.MarkHidden("control-off")
	fs.StringVar(&o.shard, "shard", "", "run part I of N of the search, for N machines (I/N, 1-based; env, env/N: the index from the job engine's environment, see docs/usage.md)")
	fs.StringVar(&o.shardBy, "shard-by", "auto", "how --shard divides the work: tests, schedules, or auto (tests when there are at least N test functions)")
	fs.StringVar(&o.results, "results", "", "write this run's results, progress and traces to DIR/shard-I-of-N, for gosct merge")
	fs.StringVar(&o.since, "since", "", "check only the change since this git revision (\"auto\": the merge base with the main branch): pairwise incremental checking, and only the tests the change can reach")
	fs.IntVar(&o.walks, "walks", strategies.DefaultWalk, "guided: every Nth schedule is a random walk (0: none, every schedule guided, as in the thesis)")
	fs.StringArrayVar(&o.targets, "target", nil, "guided: steer toward this file:line (repeatable); the targets found in the code are sought too")
	return fs
}

// parseTest parses the arguments of `gosct test`.
func parseTest(args []string) (*testOptions, error) {
	o := &testOptions{}
	fs := newTestFlagSet(o)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	o.seedSet = fs.Changed("seed")
	if o.minimize < 0 {
		return nil, usagef("--minimize must not be negative, not %v", o.minimize)
	}
	o.depsSet = fs.Changed("deps")
	o.strategySet = fs.Changed("strategy")
	if !fs.Changed("saturate") && (fs.Changed("schedules") || o.strategy != strategies.DefaultStrategy || o.since != "") {
		// --schedules N means N schedules, a strategy chosen its own
		// search: the rule belongs to the default run.
		o.saturate = false
	}
	if o.since != "" && !o.strategySet {
		o.strategy = strategies.ChangeStrategy
	}
	if fs.Changed("walks") {
		if o.walks < 0 {
			return nil, usagef("--walks must not be negative, not %d", o.walks)
		}
		if !reads(o.strategy, strategies.OptWalk) {
			return nil, usagef("--walks is an option of %s", useStrategy(strategies.OptWalk))
		}
		if o.walks == 0 {
			o.walks = -1 // strategies.Options: none, not the default
		}
	} else {
		o.walks = 0
	}
	if fs.Changed("bound") && o.bound == 0 {
		o.bound = -1 // strategies.Options: bound 0, not the default
	} else if o.bound < 0 {
		return nil, usagef("--bound must not be negative, not %d", o.bound)
	}
	pos := fs.Args()
	if dash := fs.ArgsLenAtDash(); dash >= 0 {
		gt, err := parseGoTestFlags(pos[dash:])
		if err != nil {
			return nil, err
		}
		o.gotest = *gt
		pos = pos[:dash]
	}
	for _, p := range pos {
		if strings.HasPrefix(p, "-") {
			return nil, usagef("flag %s must come before the packages (go test flags go after --)", p)
		}
	}
	switch o.jsonMode {
	case "":
	case "gosct":
		o.json = true
		if len(pos) > 0 && (pos[0] == "go" || pos[0] == "gosct") {
			// pflag takes --json go as --json and a package "go".
			return nil, usagef("write --json=%s (with =): --json alone is gosct's own stream", pos[0])
		}
	case "go":
		o.goJSON = true
	default:
		return nil, usagef("--json must be gosct (the default) or go, not %q", o.jsonMode)
	}
	for _, a := range o.annotate {
		spec, err := parseAnnotationSpec(a)
		if err != nil {
			return nil, err
		}
		o.annotations = append(o.annotations, spec)
	}
	o.packages = pos
	if len(o.packages) == 0 {
		o.packages = []string{"."}
	}
	if o.run == "" {
		o.run = o.gotest.runRe
	}
	if o.gotest.verbose {
		o.verbose = true
	}
	return o, o.validate()
}

func (o *testOptions) validate() error {
	info, ok := strategies.Lookup(o.strategy)
	if !ok {
		return usagef("unknown strategy %q (known: %s)", o.strategy, strings.Join(strategies.Names(), ", "))
	}
	if o.schedules < 1 {
		return usagef("--schedules must be at least 1, not %d", o.schedules)
	}
	if o.budget < 0 {
		return usagef("--budget must not be negative, not %v", o.budget)
	}
	if o.runBudget < 0 {
		return usagef("--run-budget must not be negative, not %v", o.runBudget)
	}
	if o.bound < -1 {
		return usagef("--bound must not be negative, not %d", o.bound)
	}
	if o.depth < 1 {
		return usagef("--depth must be at least 1, not %d", o.depth)
	}
	if o.dfsrb != "" {
		if !info.Has(strategies.OptDFSRB) {
			return usagef("--dfsrb configures --strategy %s, not %s", readers(strategies.OptDFSRB), o.strategy)
		}
		if err := strategies.CheckDFSRB(o.dfsrb); err != nil {
			return usagef("--dfsrb %q: %v", o.dfsrb, err)
		}
	}
	if o.states && !info.Has(strategies.OptStates) {
		return usagef("--states is an option of --strategy %s, not %s", readers(strategies.OptStates), o.strategy)
	}
	if o.maxSteps < 0 {
		return usagef("--max-steps must not be negative, not %d", o.maxSteps)
	}
	if o.uncontrolledWait < 0 {
		return usagef("--uncontrolled-wait must not be negative, not %v", o.uncontrolledWait)
	}
	for _, f := range []struct{ name, v string }{{"--timer-early", o.timerEarly}, {"--leak-grace", o.leakGrace}} {
		if f.v == "" {
			continue
		}
		if d, err := time.ParseDuration(f.v); err != nil || d < 0 {
			return usagef("%s must be a duration such as 1ms or 0, not %q", f.name, f.v)
		}
	}
	switch o.timing {
	case "loaded":
	case "strict":
		if d, _ := time.ParseDuration(o.timerEarly); d != 0 {
			return usagef("--timing strict fires no timer early: it cannot go with --timer-early %s", o.timerEarly)
		}
		o.timerEarly = "0"
	default:
		return usagef("--timing must be loaded or strict, not %q", o.timing)
	}
	if o.races != "off" && o.races != "report" && o.races != "sync" {
		return usagef("--races must be off, report or sync, not %q", o.races)
	}
	if _, err := topLevelRun(o.run); err != nil {
		return err
	}
	if _, err := topLevelSkip(o.gotest.skipRe); err != nil {
		return err
	}
	for _, c := range o.controlOff {
		switch c {
		case "rand", "maps", "time", "goroutines", "crypto":
		default:
			return usagef("--control-off: unknown control %q (known: rand, maps, time, goroutines, crypto)", c)
		}
	}
	if o.shardBy != "auto" && o.shardBy != "tests" && o.shardBy != "schedules" {
		return usagef("--shard-by must be tests, schedules or auto, not %q", o.shardBy)
	}
	if o.shard != "" {
		i, n, err := parseShard(o.shard, os.Getenv)
		if err != nil {
			return err
		}
		o.shardIndex, o.shards = i, n
		if !o.seedSet && seeded(info) {
			// Each machine would draw a fresh seed of its own: the
			// shards would not be parts of one search.
			return usagef("--shard needs --seed: every shard of a search must use the same seed (a value of the run, e.g. --seed $GITHUB_RUN_ID)")
		}
	}
	if info.Has(strategies.OptFragments) && o.since == "" {
		return usagef("--strategy %s checks a change: give it with --since REV", o.strategy)
	}
	if len(o.targets) > 0 && !info.Has(strategies.OptGuide) {
		return usagef("--target steers %s", useStrategy(strategies.OptGuide))
	}
	for _, t := range o.targets {
		if i := strings.LastIndexByte(t, ':'); i <= 0 || i == len(t)-1 {
			return usagef("--target %q: want file:line, e.g. queue.go:41", t)
		}
	}
	return nil
}

// reads reports whether the strategy reads the option (strategies.Info).
func reads(strategy string, opt strategies.Option) bool {
	i, ok := strategies.Lookup(strategy)
	return ok && i.Has(opt)
}

// readers names the strategies that read opt themselves, not as a member
// of a composite: "dpor".
func readers(opt strategies.Option) string {
	return joinAnd(strategies.Listed(func(i strategies.Info) bool { return i.Has(opt) && !i.Composite() }))
}

// useStrategy tells the user which strategy to choose for opt: "guided
// search: use --strategy guided (or the portfolio, of which it is a
// member)".
func useStrategy(opt strategies.Option) string {
	own := readers(opt)
	s := fmt.Sprintf("%s search: use --strategy %s", own, own)
	for _, c := range strategies.Listed(func(i strategies.Info) bool { return i.Has(opt) && i.Composite() }) {
		s += fmt.Sprintf(" (or the %s, of which it is a member)", c)
	}
	return s
}

// joinAnd lists names for a sentence: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// parseFlags runs fs over args and turns pflag's errors into usage errors in
// the user's terms: the commonest mistake is a go test flag with one dash.
func parseFlags(fs *pflag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil {
		return nil
	}
	if errors.Is(err, pflag.ErrHelp) {
		return errHelp
	}
	msg := err.Error()
	if strings.Contains(msg, "unknown shorthand flag") || strings.Contains(msg, "unknown flag") {
		msg += " (gosct's flags take two dashes, e.g. --run; flags for go test go after --, e.g. gosct test ./pkg -- -race)"
	}
	return &usageError{msg}
}

// strategyHelp lists the strategies for --help, the default first.
func strategyHelp() string {
	var b strings.Builder
	b.WriteString("\nStrategies (--strategy):\n")
	all := strategies.All()
	sort.SliceStable(all, func(i, j int) bool {
		return all[i].Name == strategies.DefaultStrategy && all[j].Name != strategies.DefaultStrategy
	})
	for _, i := range all {
		note := ""
		switch {
		case i.Name == strategies.DefaultStrategy:
			note = "; the default"
		case i.Systematic:
			note = "; systematic"
		}
		fmt.Fprintf(&b, "  %-10s %s%s\n", i.Name, i.Summary, note)
	}
	return b.String()
}

// topLevelRun returns the regexp of the first level of a -run pattern (the
// test functions; later levels select subtests, which the test binary
// filters), compiled; nil for an empty pattern.
func topLevelRun(run string) (*regexp.Regexp, error) {
	if run == "" {
		return nil, nil
	}
	first := splitRun(run)[0]
	re, err := regexp.Compile(first)
	if err != nil {
		return nil, usagef("bad --run regexp %q: %v", run, err)
	}
	return re, nil
}

// topLevelSkip returns the regexp of a -skip pattern of one level, which
// skips whole test functions, compiled; nil for a pattern of several
// levels (it skips subtests only: the test functions still run) or none.
func topLevelSkip(skip string) (*regexp.Regexp, error) {
	levels := splitRun(skip)
	for _, l := range levels {
		if _, err := regexp.Compile(l); err != nil {
			return nil, usagef("bad -skip regexp %q: %v", skip, err)
		}
	}
	if skip == "" || len(levels) > 1 {
		return nil, nil
	}
	return regexp.MustCompile(skip), nil
}

// splitRun splits a -run pattern on the slashes that separate test levels,
// ignoring those inside brackets and parentheses, as package testing does.
func splitRun(s string) []string {
	var out []string
	cs, cp, start := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			cs++
		case ']':
			if cs--; cs < 0 {
				cs = 0
			}
		case '(':
			if cs == 0 {
				cp++
			}
		case ')':
			if cs == 0 {
				cp--
			}
		case '\\':
			i++
		case '/':
			if cs == 0 && cp == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// exactRun is the -test.run pattern that selects exactly the test named
// name ("TestX" or "TestX/sub/case"), whatever characters it holds.
func exactRun(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// defaultTraceDir is where traces go without --trace-dir: outside the
// user's tree (gosct never writes there unasked), kept across runs.
func defaultTraceDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "gosct", "traces")
	}
	return filepath.Join(os.TempDir(), "gosct-traces")
}
