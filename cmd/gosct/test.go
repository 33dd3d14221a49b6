package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/rewrite"
	"github.com/gosct/gosct/strategies"
)

const testUsage = `usage: gosct test [flags] [packages] [-- go test flags]

Runs each test function of the packages under many schedules and reports
every concurrency bug (deadlock, leak, panic, failure, race, livelock) with
a trace that "gosct replay TRACE" replays. Traces kept in a package's
testdata/gosct/ are replayed first, as regression cases.

Flags after -- reach go test: build flags (-race, -tags, -gcflags...) the
build, test flags (-v, -timeout, -short, -skip...) the test binary.

Flags:
`

// printTestHelp prints gosct test --help.
func printTestHelp(stdout io.Writer) {
	fmt.Fprint(stdout, testUsage)
	fs := newTestFlagSet(&testOptions{})
	fs.SetOutput(stdout)
	fs.PrintDefaults()
	fmt.Fprint(stdout, strategyHelp())
}

// runner holds what one `gosct test` or `gosct replay` invocation shares
// across packages.
type runner struct {
	// confirming, with --confirm, shows each new bug under go test.
	confirming *confirming
	ctx        context.Context
	rep        *reporter
	tmp        string
	build      *rewrite.Build
	gt         *goTestFlags
	stream     bool
	// timeout is the -test.timeout of the test binaries.
	timeout string
	// bugs, nondet and errors count what decides the exit status.
	bugs   int
	nondet int
	// ahead paces startBuilds.
	ahead chan struct{}
	// diverged holds the divergences reported, to report each once.
	diverged map[string]bool
	// deps: the build instruments the dependency modules. withoutDeps,
	// when set, is how to instrument without them, for a package whose
	// build fails with them (noDeps caches that build).
	deps        bool
	withoutDeps *rewrite.Options
	noDeps      *rewrite.Build
	depsLeft    map[string]bool // packages built without them
	// files holds the file of the file hashes of each package, by
	// directory (files.go).
	files map[string]string
	// rangeLen, in a shard of a ranged search (--shard, by schedules, a
	// strategy whose schedules are numbered), is the length of its range:
	// what per-process mode runs in all. 0 otherwise.
	rangeLen int
	// limits and run are the user's stopping rules and --run, for the
	// tests explored again in fresh processes (confirm.go).
	limits wire.Limits
	run    string
}

func cmdTest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseTest(args)
	if errors.Is(err, errHelp) {
		printTestHelp(stdout)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "gosct test: %v\n", err)
		return exitError
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "gosct test: %v\n", err)
		return exitError
	}
	opts := rewrite.Options{Dir: cwd, Patterns: o.packages, Tags: o.gotest.tags, Deps: o.deps}
	since, code, done := startSince(ctx, o, cwd, &opts, stdout, stderr)
	if done {
		return code
	}
	if since != nil && since.syntaxOnly {
		return since.syntaxOnlyRun(o, stdout, stderr)
	}
	if since != nil {
		defer os.RemoveAll(since.dir)
	}
	var guide guidance
	if reads(o.strategy, strategies.OptGuide) {
		opts.Analyze = guide.analyze(o, cwd)
	}
	b, depsFailed, err := instrumentFor(ctx, o, &opts)
	if err != nil {
		fmt.Fprintf(stderr, "gosct test: %s\n", instrumentError(err))
		return exitError
	}
	if since != nil {
		since.restrict(b.Packages)
	}
	t := newTestRun(o, b, since)
	if err := t.divide(); err != nil {
		fmt.Fprintf(stderr, "gosct test: %v\n", err)
		return exitError
	}
	if err := t.prepareDirs(); err != nil {
		fmt.Fprintf(stderr, "gosct test: %v\n", err)
		return exitError
	}
	rep, closeResults, err := t.newReporter(cwd, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "gosct test: %v\n", err)
		return exitError
	}
	defer closeResults()
	for _, w := range o.gotest.warnings {
		rep.message("warning", "", "", "", w)
	}
	if depsFailed {
		rep.message("warning", "", "", "", "dependency modules not instrumented (they are uncontrolled code): instrumenting them failed")
	}
	if guide.warning != "" {
		rep.message("warning", "", "", "", guide.warning)
	}
	for _, w := range b.Warnings {
		rep.message("warning", "", "", "", w)
	}
	tmp, err := os.MkdirTemp("", "gosct-")
	if err != nil {
		fmt.Fprintf(stderr, "gosct test: %v\n", err)
		return exitError
	}
	defer os.RemoveAll(tmp)
	if o.perProcess && t.stateDir == "" {
		// The processes of one test hand the search on through a
		// state file, kept for this run only.
		dir, cleanup := runStateDir(tmp)
		defer cleanup()
		t.stateDir = dir
	}
	r := t.newRunner(ctx, rep, tmp, opts)
	t.explore(r, guide.path)
	t.finish(r, args)
	return exitStatus(r.bugs+r.nondet, rep.errors)
}

// runInfo describes the run for its results directory.
func (o *testOptions) runInfo(cwd, traceDir, stateDir string) runInfo {
	host, _ := os.Hostname()
	return runInfo{
		Gosct: wire.Version, Shard: max(o.shardIndex, 1), Shards: max(o.shards, 1), By: o.by,
		Strategy: o.strategy, Seed: o.seed, Schedules: o.schedules, BudgetS: o.budget.Seconds(),
		Bound: o.bound, Depth: o.depth, Races: o.races, KeepGoing: o.keepGoing, MaxSteps: o.maxSteps,
		Run: o.run, Packages: o.packages, Dir: cwd, TraceDir: traceDir, State: stateDir, Host: host,
		Started: time.Now(),
	}
}

// pkgStatus is the status and detail of a package's line: FAIL with its
// bugs or errors, ok with the tests not explored.
func pkgStatus(bugs, errs, notExplored int) (string, string) {
	switch {
	case bugs > 0:
		return "FAIL", fmt.Sprintf("[%d bug%s]", bugs, plural(bugs))
	case errs > 0:
		return "FAIL", "[error]"
	case notExplored > 0:
		return "ok", fmt.Sprintf("[%d test%s not explored]", notExplored, plural(notExplored))
	}
	return "ok", ""
}

// explorePattern is the -test.run of an exploration. The runtime runs each
// schedule of a test function as a subtest schedule_N, so the user's
// subtests are one level deeper than the user's pattern says: an empty
// level, which matches anything, is inserted for the schedules.
func explorePattern(run string) string {
	if run == "" {
		return "."
	}
	levels := splitRun(run)
	if len(levels) == 1 {
		return run
	}
	return levels[0] + "//" + strings.Join(levels[1:], "/")
}

// packageTraceDir is the directory of one package's traces: the runtime
// names a trace after its test, and two packages may have tests of the same
// name.
func packageTraceDir(dir, importPath string) string {
	return filepath.Join(dir, strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(importPath))
}

// exitStatus: a bug found (or, with --check-determinism, a schedule that
// does not replay) is the answer the user asked for, so it wins over errors
// met elsewhere (which were printed).
func exitStatus(bugs, errs int) int {
	switch {
	case bugs > 0:
		return exitBug
	case errs > 0:
		return exitError
	}
	return exitOK
}

// buildPackage builds pkg's instrumented test binary, and reports a failure.
func (r *runner) buildPackage(i int, pkg *rewrite.Package) (string, bool) {
	return r.builtPackage(pkg, r.build1(i, pkg))
}

// built is the outcome of one `go test -c`.
type built struct {
	bin string
	out []byte
	err error
}

func (r *runner) build1(i int, pkg *rewrite.Package) built {
	bin := filepath.Join(r.tmp, fmt.Sprintf("%d-%s.test", i, path.Base(pkg.ImportPath)))
	out, err := buildTestBinary(r.ctx, r.build.ModDir, r.build.Overlay, r.build.Flags, r.gt, pkg.ImportPath, bin)
	return built{bin, out, err}
}

// builtPackage reports a failed build (its output names the user's
// file:line) and returns the binary of a good one.
func (r *runner) builtPackage(pkg *rewrite.Package, b built) (string, bool) {
	if b.err != nil && r.withoutDeps != nil {
		if bin, ok := r.buildWithoutDeps(pkg, b); ok {
			return bin, true
		}
	}
	if b.err != nil {
		msg := "build failed: " + strings.TrimSpace(lastLine(b.err.Error()))
		if r.ctx.Err() != nil {
			msg = "not built: the run was interrupted during the build"
		}
		if why := r.plainBuilds(pkg); why != "" {
			msg += "; " + why
		}
		r.rep.buildFailed(pkg.ImportPath, b.out, msg)
		return "", false
	}
	return b.bin, true
}

// buildWithoutDeps builds pkg with its dependency modules left
// uninstrumented, after the build with them failed (failed).
func (r *runner) buildWithoutDeps(pkg *rewrite.Package, failed built) (string, bool) {
	if r.noDeps == nil {
		b, err := instrument(r.ctx, *r.withoutDeps)
		if err != nil {
			r.withoutDeps = nil
			return "", false
		}
		r.noDeps = b
	}
	bin := failed.bin + "-nodeps"
	if _, err := buildTestBinary(r.ctx, r.noDeps.ModDir, r.noDeps.Overlay, r.noDeps.Flags, r.gt, pkg.ImportPath, bin); err != nil {
		return "", false
	}
	if r.depsLeft == nil {
		r.depsLeft = map[string]bool{}
	}
	r.depsLeft[pkg.ImportPath] = true
	r.rep.message("warning", pkg.ImportPath, "", "", "dependency modules not instrumented for this package (they are uncontrolled code): the build with them failed: "+strings.TrimSpace(lastLine(failed.err.Error())))
	return bin, true
}

// startBuilds builds the test binaries of the packages that need one, in
// order, up to buildsAhead of them at once, ahead of their runs: compiling
// the next packages overlaps exploring the current one. A small package's
// `go test -c` is a compile then a link, one CPU's work, so one build at a
// time left the other cores idle whenever a run of many small packages was
// waiting for its binaries (gobugs' 90 packages: 166 s for the run, 69 s
// of it exploring, docs/performance.md "The newcomer's minute"). The
// result of package i arrives on the i-th channel (nil for a package that
// needs no build).
func (r *runner) startBuilds(pkgs []*rewrite.Package, need func(*rewrite.Package) bool) []chan built {
	chans := make([]chan built, len(pkgs))
	for i, p := range pkgs {
		if need(p) {
			chans[i] = make(chan built, 1)
		}
	}
	// ahead holds a token per build started and not yet taken: at most
	// buildsAhead binaries build or wait at once.
	ahead := make(chan struct{}, buildsAhead())
	r.ahead = ahead
	go func() {
		for i, p := range pkgs {
			if chans[i] == nil {
				continue
			}
			select {
			case ahead <- struct{}{}:
			case <-r.ctx.Done():
				return
			}
			go func() { chans[i] <- r.build1(i, p) }()
		}
	}()
	return chans
}

// buildsAhead is how many test binaries build at once: one per CPU, as the
// go command's own -p does for the actions of one build.
func buildsAhead() int {
	return max(1, runtime.GOMAXPROCS(0))
}

// takeBuild waits for the build of a package started by startBuilds.
func (r *runner) takeBuild(c chan built) built {
	b := <-c
	<-r.ahead
	return b
}

// regressions replays the traces kept in pkg's testdata/gosct.
// keep says which tests' traces this run replays (a shard replays those
// of its own tests, or shard 1 all of them).
func (r *runner) regressions(i int, pkg *rewrite.Package, bin string, runRe, skipRe *regexp.Regexp, keep func(string) bool) {
	traces, _ := filepath.Glob(filepath.Join(pkg.Dir, "testdata", "gosct", "*.json"))
	sort.Strings(traces)
	for j, p := range traces {
		rel := relPath(pkg.Dir, p)
		t, err := replay.Read(p)
		if err != nil {
			r.rep.message("error", pkg.ImportPath, "", p, err.Error())
			continue
		}
		top := strings.SplitN(t.Test, "/", 2)[0]
		if runRe != nil && !runRe.MatchString(top) || skipRe != nil && skipRe.MatchString(top) || !keep(top) {
			continue
		}
		if !contains(pkg.Tests, top) {
			r.rep.message("warning", pkg.ImportPath, t.Test, p, fmt.Sprintf("regression trace %s names a test that the package does not have", rel))
			continue
		}
		cfg := wire.Config{
			Mode: "replay", Package: pkg.ImportPath, Strategy: t.Strategy, Seed: t.Seed, Schedules: 1,
			Trace: p, TraceDir: filepath.Join(r.tmp, fmt.Sprintf("%d-regression-%d", i, j)),
		}
		r.describePackage(i, pkg, &cfg)
		if err := os.MkdirAll(cfg.TraceDir, 0o755); err != nil {
			r.rep.message("error", pkg.ImportPath, "", "", err.Error())
			return
		}
		res := r.runTests(i, pkg, bin, cfg, exactRun(t.Test), []string{top}, rel)
		if res != nil && countEvents(res.events, "bug") == 0 && countEvents(res.events, "diverged") == 0 {
			r.rep.message("info", pkg.ImportPath, t.Test, p, fmt.Sprintf("regression trace %s passed", rel))
		}
	}
}

// runTests runs the binary once and reports its events. expected are the
// test functions that must each report a "test" event; regression names the
// testdata trace replayed ("" while exploring).
func (r *runner) runTests(i int, pkg *rewrite.Package, bin string, cfg wire.Config, run string, expected []string, regression string) *binaryResult {
	res, _ := r.runPass(i, pkg, bin, cfg, run, expected, regression)
	return res
}

// runPass is runTests, and also returns the expected tests that a binary
// which died in one of them did not get to (check), for a fresh process.
func (r *runner) runPass(i int, pkg *rewrite.Package, bin string, cfg wire.Config, run string, expected []string, regression string) (*binaryResult, []string) {
	cfg.Results = filepath.Join(r.tmp, fmt.Sprintf("%d-%d.results", i, time.Now().UnixNano()))
	args := []string{"-test.run=" + run, "-test.count=1"}
	if r.timeout != "" {
		args = append(args, "-test.timeout="+r.timeout)
	}
	if r.stream {
		args = append(args, "-test.v=true")
	}
	args = append(args, r.gt.run...)
	rep := r.rep
	if rep.progress != nil {
		rep.progress.begin(pkg.ImportPath, len(expected))
	}
	var unconfirmed carried
	res, err := runBinary(r.ctx, binaryRun{
		bin: bin, dir: pkg.Dir, cfg: cfg, args: args, stream: r.stream,
		onEvent: func(e wire.Event) {
			if cfg.Mode == "replay" && !cfg.Continue && e.Event == "bug" {
				// The trace replayed is the one to point at: the
				// runtime's copy lands in a temporary directory.
				e.Trace = cfg.Trace
			}
			if e.Event == "progress" && rep.out != nil {
				e.Package = pkg.ImportPath
				rep.out.observe(e)
			}
			if cfg.Mode == "explore" && regression == "" {
				if !r.confirmed(i, pkg, bin, &e, &unconfirmed) {
					return
				}
				if e.Event == "bug" && e.Replayed && r.confirming != nil && r.confirming.needs(e) && unrecorded(e.Trace) {
					r.confirming.rerec[e.Trace] = r.rerecord(i, pkg, bin, cfg, e)
				}
			}
			r.event(pkg.ImportPath, e, regression)
		},
	}, rep)
	if err != nil {
		rep.message("error", pkg.ImportPath, "", "", err.Error())
		return nil, nil
	}
	rest := r.check(pkg.ImportPath, res, expected, func(tests []string) []string { return r.binaryOrder(pkg.Dir, bin, tests) })
	r.reexplore(i, pkg, bin, cfg, &unconfirmed)
	return res, rest
}

// event reports one event of the results file.
func (r *runner) event(pkg string, e wire.Event, regression string) {
	switch e.Event {
	case "bug":
		r.bugs++
		r.rep.bugConfirmed(pkg, e, regression, r.confirmBug(e))
	case "test":
		if regression == "" { // a regression replay is not exploration
			r.rep.test(pkg, e)
		}
	case "diverged":
		// With --continue every execution replays the prefix and
		// diverges at the same point again: say it once.
		k := pkg + "\x00" + e.Test + "\x00" + e.Message
		if r.diverged[k] {
			return
		}
		if r.diverged == nil {
			r.diverged = map[string]bool{}
		}
		r.diverged[k] = true
		msg := e.Message
		if regression != "" {
			msg = fmt.Sprintf("regression trace %s no longer follows the code (fixed, or changed?): %s", regression, msg)
		}
		r.rep.message("diverged", pkg, e.Test, e.Trace, msg)
	case "coverage":
		if regression == "" {
			r.rep.coverage(pkg, e)
		}
	case "nondeterministic":
		r.nondet++
		r.rep.nondeterministic(pkg, e)
	case "warning":
		r.rep.message("warning", pkg, e.Test, e.Trace, e.Message)
	case "error":
		r.rep.message("error", pkg, e.Test, e.Trace, e.Message)
	}
}

// check compares what the binary reported with what it was asked to do: a
// test function without a "test" event means the binary died in it. That is
// an error, not a bug: only events report bugs. order, when not nil, puts
// tests in the order the binary runs them (nil when it cannot tell). check
// returns the expected tests after the one the binary died in, none of which
// ran: the caller may run them in a fresh process.
func (r *runner) check(pkg string, res *binaryResult, expected []string, order func([]string) []string) []string {
	done := map[string]bool{}
	errs := 0
	for _, e := range res.events {
		switch e.Event {
		case "test":
			done[strings.SplitN(e.Test, "/", 2)[0]] = true
		case "error":
			// Reported; the test ends there (a saved search of other
			// options, say).
			done[strings.SplitN(e.Test, "/", 2)[0]] = true
			errs++
		}
	}
	var missing []string
	for _, t := range expected {
		if !done[t] {
			missing = append(missing, t)
		}
	}
	if res.truncated || res.bad > 0 {
		r.rep.message("warning", pkg, "", "", "the results file of the test binary holds unreadable lines (cut short by a crash?)")
	}
	// A nondeterministic schedule's second run may fail where the first
	// did not: reported, like a bug.
	// A schedule that found again a bug an earlier process reported
	// ("known") failed the binary too.
	bugs := countEvents(res.events, "bug") + countEvents(res.events, "nondeterministic") + countEvents(res.events, "known")
	switch {
	case len(missing) > 0 && res.exitCode != 0:
		if !r.stream {
			r.rep.output(pkg, res.output)
		}
		return r.died(pkg, res.exitCode, expected, missing, done, order)
	case len(missing) > 0:
		r.uncontrolled(pkg, missing)
	case res.exitCode != 0 && bugs == 0 && errs == 0:
		if !r.stream {
			r.rep.output(pkg, res.output)
		}
		msg := fmt.Sprintf("the test binary failed (exit status %d) outside the schedules gosct controls (output above)", res.exitCode)
		if stopped := notExplored(res.events); len(stopped) > 0 {
			// A schedule stopped in its middle may have failed its
			// subtest: the failure is not known to be outside.
			msg = fmt.Sprintf("the test binary failed (exit status %d) with no bug reported; gosct stopped %s before the end (not explored), and a schedule stopped in its middle may fail its test (output above)", res.exitCode, strings.Join(stopped, ", "))
		}
		r.rep.message("error", pkg, "", "", msg)
	}
	return nil
}

// uncontrolled warns of tests the binary ran, or went past, without a
// result from gosct's runtime.
func (r *runner) uncontrolled(pkg string, tests []string) {
	r.rep.message("warning", pkg, "", "", fmt.Sprintf("no gosct result for %s: the test ran without scheduling control", strings.Join(tests, ", ")))
}

// died reports a binary that exited before reporting the tests missing,
// and returns those to run again in a fresh process (diedIn).
func (r *runner) died(pkg string, code int, expected, missing []string, done map[string]bool, order func([]string) []string) []string {
	var d death
	ok := false
	if len(missing) < len(expected) && order != nil {
		// Only a binary that reported a test got past TestMain: one that
		// reported none may have died before its first test.
		d, ok = diedIn(order(expected), done)
	}
	if !ok {
		r.rep.message("error", pkg, missing[0], "", fmt.Sprintf("the test binary exited with status %d before reporting %s (output above)", code, strings.Join(missing, ", ")))
		return nil
	}
	if len(d.skipped) > 0 {
		r.uncontrolled(pkg, d.skipped)
	}
	msg := fmt.Sprintf("the test binary exited with status %d in %s (output above)", code, d.in)
	n := len(d.rest)
	switch {
	case n > 0 && r.ctx.Err() != nil:
		msg += fmt.Sprintf("; the %d test%s after it did not run (interrupted)", n, plural(n))
		d.rest = nil
	case n > 0:
		msg += fmt.Sprintf("; the %d test%s after it run%s again in a fresh process", n, plural(n), pick(n == 1, "s", ""))
	}
	r.rep.message("error", pkg, d.in, "", msg)
	return d.rest
}

// notExplored names the tests whose exploration was stopped early.
func notExplored(evs []wire.Event) []string {
	var names []string
	for _, e := range evs {
		if e.Event == "test" && e.Outcome() == wire.OutcomeNotExplored {
			names = append(names, e.Test)
		}
	}
	return names
}

func countEvents(evs []wire.Event, kind string) int {
	n := 0
	for _, e := range evs {
		if e.Event == kind {
			n++
		}
	}
	return n
}

// filterTests keeps the tests matched by the first level of -run.
func filterTests(tests []string, re *regexp.Regexp) []string {
	if re == nil {
		return tests
	}
	var out []string
	for _, t := range tests {
		if re.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// withoutSkipped drops the tests a one-level -skip pattern skips.
func withoutSkipped(tests []string, skip *regexp.Regexp) []string {
	if skip == nil {
		return tests
	}
	var out []string
	for _, t := range tests {
		if !skip.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// testTimeout is the -test.timeout of a binary: the user's, or go test's
// 10 minutes stretched to cover the budgets of all its tests, so that only a
// hung binary hits it.
func testTimeout(user string, budget time.Duration, tests int) string {
	if user != "" {
		return user
	}
	t := 10 * time.Minute
	if budget > 0 {
		if need := time.Duration(tests)*(budget+10*time.Second) + time.Minute; need > t {
			t = need
		}
	} else {
		t = 0 // no budget: exploration may legitimately run long
	}
	if t == 0 {
		return ""
	}
	return t.String()
}

func prepareTraceDir(dir string) (string, error) {
	if dir == "" {
		dir = defaultTraceDir()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", fmt.Errorf("cannot create the trace directory: %v", err)
	}
	return abs, nil
}

func instrumentError(err error) string {
	var ue *rewrite.UserError
	if errors.As(err, &ue) {
		return ue.Msg
	}
	return "cannot instrument the packages: " + err.Error()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func relPath(base, p string) string {
	if rel, err := filepath.Rel(base, p); err == nil {
		return rel
	}
	return p
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
