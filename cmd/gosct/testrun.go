package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/rewrite"
	"github.com/gosct/gosct/static"
)

// The steps of one `gosct test`, once the packages are instrumented:
// cmdTest (test.go) parses, instruments and calls them in turn.

// guidance is the static guide of the strategies that steer by one,
// computed while the packages are loaded for instrumenting: path is the
// guide file, warning says why there is none (reported once the reporter
// exists).
type guidance struct {
	path, warning string
}

// analyze returns the rewriter's Analyze hook that computes the guide.
func (g *guidance) analyze(o *testOptions, cwd string) func(*rewrite.Loaded) error {
	return func(l *rewrite.Loaded) error {
		var err error
		g.path, err = computeGuide(l, static.Options{Targets: o.targets, Dir: cwd, Races: o.races != "off"})
		if err != nil {
			var te *static.TargetError
			if errors.As(err, &te) {
				return &rewrite.UserError{Msg: te.Error()}
			}
			g.warning = noGuide(o.strategy) + ": " + err.Error()
		}
		return nil
	}
}

// instrumentFor instruments the packages; depsFailed says the dependency
// modules were left out because instrumenting them failed (they are
// instrumented by default, not on demand: without them the packages may
// still be tested).
func instrumentFor(ctx context.Context, o *testOptions, opts *rewrite.Options) (b *rewrite.Build, depsFailed bool, err error) {
	b, err = instrument(ctx, *opts)
	if err != nil && o.deps && !o.depsSet {
		opts.Deps = false
		b, err = instrument(ctx, *opts)
		depsFailed = err == nil
	}
	return b, depsFailed, err
}

// testRun is one `gosct test` over its instrumented packages: which tests
// it runs, where it writes, and how far the run budget went.
type testRun struct {
	o     *testOptions
	b     *rewrite.Build
	since *sinceRun
	// runRe and skipRe are the first levels of -run and -skip.
	runRe, skipRe *regexp.Regexp
	// mine, with --shard by tests, are this machine's tests, by package;
	// nil otherwise.
	mine map[string][]string
	// traceDir and stateDir are the directories of the traces and of the
	// saved searches ("" for none).
	traceDir, stateDir string
}

func newTestRun(o *testOptions, b *rewrite.Build, since *sinceRun) *testRun {
	runRe, _ := topLevelRun(o.run) // validated by parseTest
	skipRe, _ := topLevelSkip(o.gotest.skipRe)
	return &testRun{o: o, b: b, since: since, runRe: runRe, skipRe: skipRe}
}

// selected are the tests of a package that -run and -skip select.
func (t *testRun) selected(tests []string) []string {
	return withoutSkipped(filterTests(tests, t.runRe), t.skipRe)
}

// testsOf are the tests of a package this run explores: the selected ones,
// or with --shard by tests this machine's share of them.
func (t *testRun) testsOf(p *rewrite.Package) []string {
	if t.mine != nil {
		return t.mine[p.ImportPath]
	}
	return t.selected(p.Tests)
}

// divide decides, with --shard, this machine's share: its tests (by
// tests), or its part of every test's search (by schedules).
func (t *testRun) divide() error {
	o := t.o
	if o.shards == 0 {
		return nil
	}
	count := 0
	for _, p := range t.b.Packages {
		count += len(t.selected(p.Tests))
	}
	var err error
	if o.by, err = shardUnit(o, count); err != nil {
		return err
	}
	if o.by == "tests" {
		t.mine = testsOfShard(t.b.Packages, t.selected, o.shardIndex, o.shards)
	}
	return nil
}

// prepareDirs makes the directories of the saved searches and of the
// traces, and draws the run's seed when none was given.
func (t *testRun) prepareDirs() error {
	o := t.o
	if o.state != "" {
		if o.shards > 1 {
			// Each shard's searches are its own: a shard resumes its
			// part, and the shards may share one volume.
			o.state = filepath.Join(o.state, shardName(o.shardIndex, o.shards))
		}
		var err error
		if t.stateDir, err = prepareState(o); err != nil {
			return err
		}
	}
	if !o.seedSet && o.shards == 0 {
		// A fresh seed per run explores new schedules each time; the
		// summary prints it so the run can be repeated exactly. (The
		// shards of a search need the same seed: --shard takes it from
		// --seed, or 0 for a strategy the seed does not change.)
		o.seed = time.Now().UnixNano() & 0x7fffffff
	}
	if o.traceDir == "" && o.results != "" {
		// The traces go with the results, wherever they are taken.
		o.traceDir = filepath.Join(o.results, shardName(max(o.shardIndex, 1), max(o.shards, 1)), "traces")
	}
	var err error
	t.traceDir, err = prepareTraceDir(o.traceDir)
	return err
}

// newReporter makes the run's reporter, with the outputs the flags ask
// for; closeResults closes the results directory (--results) at the end.
func (t *testRun) newReporter(cwd string, stdout, stderr io.Writer) (rep *reporter, closeResults func(), err error) {
	o := t.o
	closeResults = func() {}
	rep = newReporter(stdout, stderr, o.json, o.verbose, o.strategy, o.seed)
	if o.goJSON {
		rep.gojson = newGoJSON(stdout, rep.cwd, o.strategy, o.seed)
	}
	if len(o.annotations) > 0 {
		out := stdout
		if o.json || o.goJSON {
			out = stderr // stdout holds JSON; the CI runner reads both
		}
		a, err := newAnnotator(o.annotations, out, rep.cwd)
		if err != nil {
			return nil, closeResults, err
		}
		rep.annot = a
	}
	if o.coverage != "" {
		rep.cov = newCoverageReport(o.coverage, rep.cwd, o.races != "sync")
	}
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		rep.progress = newProgress(stderr, o.strategy)
	}
	if o.shards > 1 {
		rep.shard = fmt.Sprintf("%d/%d", o.shardIndex, o.shards)
	}
	rep.pkgs = map[string]pkgPos{}
	for i, p := range t.b.Packages {
		rep.pkgs[p.ImportPath] = pkgPos{i, t.selected(p.Tests)}
	}
	if o.results != "" {
		out, err := newResultsWriter(o.results, o.runInfo(cwd, t.traceDir, t.stateDir), t.stateDir != "")
		if err != nil {
			return nil, closeResults, err
		}
		rep.out = out
		mineCount := 0
		for _, p := range t.b.Packages {
			mineCount += len(t.testsOf(p))
		}
		out.setBy(o.by, mineCount)
		return rep, out.close, nil
	} else if o.shards > 1 {
		rep.message("warning", "", "", "", "--shard without --results: gosct merge will have nothing of this shard to read")
	}
	return rep, closeResults, nil
}

// byRange says this machine runs a range of every test's schedules
// (--shard by schedules).
func (t *testRun) byRange() bool { return t.o.by == "schedules" && t.o.shards > 1 }

// newRunner makes the runner of the packages' test binaries.
func (t *testRun) newRunner(ctx context.Context, rep *reporter, tmp string, opts rewrite.Options) *runner {
	o := t.o
	r := &runner{ctx: ctx, rep: rep, tmp: tmp, build: t.b, gt: &o.gotest, stream: o.verbose, deps: opts.Deps,
		limits: wire.Limits{Schedules: o.schedules, Budget: o.budget, KeepGoing: o.keepGoing}, run: o.run}
	if o.confirm {
		r.confirming = newConfirming(&o.gotest)
	}
	if opts.Deps && !o.depsSet {
		opts.Deps = false
		r.withoutDeps = &opts
	}
	if t.byRange() && ranged(o) {
		first, end := wire.ShardRange(o.schedules, o.shardIndex, o.shards)
		r.rangeLen = max(end-first, -1)
		if r.rangeLen == 0 {
			r.rangeLen = -1 // an empty range
		}
	}
	return r
}

// explore runs the packages' tests, one package after the other, the next
// one building while the current one runs.
func (t *testRun) explore(r *runner, guide string) {
	o, b, rep := t.o, t.b, r.rep
	if len(b.Packages) == 0 {
		rep.message("error", "", "", "", fmt.Sprintf("no package to test matches %s", strings.Join(o.packages, " ")))
	}
	builds := r.startBuilds(b.Packages, func(p *rewrite.Package) bool { return len(t.testsOf(p)) > 0 })
	// The run budget counts the time the test binaries explore, not the
	// builds: testsLeft are the test functions of the packages not run yet.
	var explored time.Duration
	testsLeft := 0
	for _, pkg := range b.Packages {
		testsLeft += len(t.testsOf(pkg))
	}
	if rep.progress != nil {
		rep.progress.plan(testsLeft, o.runBudget)
	}
	for i, pkg := range b.Packages {
		testsLeft -= len(t.testsOf(pkg))
		if r.ctx.Err() != nil {
			break
		}
		tests := t.testsOf(pkg)
		if line, detail, skip := t.skipPackage(pkg, tests); skip {
			if line != "" {
				rep.pkgLine(line, pkg.ImportPath, detail)
			}
			continue
		}
		r.timeout = testTimeout(o.gotest.timeout, o.budget, len(tests))
		bin, ok := r.builtPackage(pkg, r.takeBuild(builds[i]))
		if !ok {
			continue
		}
		start := time.Now()
		rep.pkgStart(pkg.ImportPath)
		bugs0, errs0, unexplored0 := r.bugs, rep.errors, len(rep.notExplored)
		r.regressions(i, pkg, bin, t.runRe, t.skipRe, t.keepRegression(pkg, tests))
		run := explorePattern(o.run)
		if t.mine != nil || t.since != nil {
			run = testsPattern(tests, o.run)
		}
		cfg := t.config(pkg, guide, r.deps && !r.depsLeft[pkg.ImportPath])
		t.shareRunBudget(&cfg, explored, testsLeft+len(tests))
		if rep.cov != nil {
			rep.cov.addPackage(pkg)
		}
		r.describePackage(i, pkg, &cfg)
		if o.perProcess {
			limits := t.processLimits(&cfg)
			r.perProcess(i, pkg, bin, cfg, o.run, tests, limits)
		} else {
			spent := func() time.Duration { return explored + time.Since(start) }
			t.runResuming(r, i, pkg, bin, cfg, run, tests, func(c *wire.Config, rest []string) {
				t.shareRunBudget(c, spent(), testsLeft+len(rest))
			})
		}
		explored += time.Since(start)
		status, detail := pkgStatus(r.bugs-bugs0, rep.errors-errs0, len(rep.notExplored)-unexplored0)
		rep.pkgResult(status, pkg.ImportPath, time.Since(start).Seconds(), detail)
	}
}

// shareRunBudget gives a binary what is left of the run budget after
// spent, to share among the tests left (its own and later packages'). A
// spent budget stays a budget, each test then taking wire.MinRunShare:
// 0 would be none.
func (t *testRun) shareRunBudget(cfg *wire.Config, spent time.Duration, tests int) {
	if t.o.runBudget > 0 {
		cfg.RunBudgetNS, cfg.RunTests = int64(max(t.o.runBudget-spent, 1)), tests
	}
}

// runResuming runs pkg's binary over tests and, each time it dies in one
// of them, runs the tests after that one in a fresh process (resume.go),
// with what is left of the run budget (budget sets it). It ends: each
// fresh process runs fewer tests than the last, none when the last
// reported no test (check).
func (t *testRun) runResuming(r *runner, i int, pkg *rewrite.Package, bin string, cfg wire.Config, run string, tests []string, budget func(*wire.Config, []string)) {
	for {
		_, rest := r.runPass(i, pkg, bin, cfg, run, tests, "")
		if len(rest) == 0 {
			return
		}
		tests, run = rest, testsPattern(rest, t.o.run)
		budget(&cfg, rest)
	}
}

// skipPackage says whether a package is not explored, and the package line
// that says why ("" for none: another shard's tests).
func (t *testRun) skipPackage(pkg *rewrite.Package, tests []string) (status, detail string, skip bool) {
	switch {
	case t.since != nil && t.since.unaffected[pkg.ImportPath]:
		return "ok", "[not run: the change cannot reach its tests]", true
	case len(pkg.Tests) == 0:
		return "?", "[no test files]", true
	case len(t.selected(pkg.Tests)) == 0:
		return "ok", "[no tests to run]", true
	case len(tests) == 0:
		return "", "", true // other shards' tests
	}
	return "", "", false
}

// keepRegression says which tests' regression traces this run replays: a
// shard replays those of its own tests, or shard 1 all of them (and warns
// of a trace naming no test of the package, once).
func (t *testRun) keepRegression(pkg *rewrite.Package, tests []string) func(string) bool {
	return func(test string) bool {
		if !contains(pkg.Tests, test) {
			return t.o.shardIndex <= 1 // to warn once
		}
		return contains(tests, test) && (!t.byRange() || t.o.shardIndex == 1)
	}
}

// config is the exploration's configuration for the test binary of pkg,
// before the run budget and the package's description; deps says its
// dependency modules are instrumented.
func (t *testRun) config(pkg *rewrite.Package, guide string, deps bool) wire.Config {
	o := t.o
	cfg := wire.Config{
		Mode: "explore", Package: pkg.ImportPath, Strategy: o.strategy, Seed: o.seed,
		Schedules: o.schedules, BudgetNS: int64(o.budget), Bound: o.bound, Depth: o.depth, States: o.states,
		DFSRB: o.dfsrb, Walk: o.walks, KeepGoing: o.keepGoing, MaxSteps: o.maxSteps, Races: o.races,
		TraceDir: packageTraceDir(t.traceDir, pkg.ImportPath), State: t.stateDir, Deps: deps,
		UncontrolledWaitNS: int64(o.uncontrolledWait), CheckReplay: o.checkReplay, MinimizeNS: int64(o.minimize),
		TimerEarly: o.timerEarly, LeakGrace: o.leakGrace,
		CheckDeterminism: o.checkDeterminism, Free: o.controlOff, Coverage: o.coverage != "", Guide: guide,
		Saturate: o.saturate,
	}
	if t.since != nil {
		cfg.Fragments = t.since.path
	}
	if t.byRange() {
		cfg.Shard, cfg.Shards, cfg.Total = o.shardIndex, o.shards, o.schedules
	}
	return cfg
}

// processLimits are the stopping rules of a test explored in fresh
// processes (--per-process): its processes share the test's part of the
// run budget, divided here once for the package (and taken out of cfg).
func (t *testRun) processLimits(cfg *wire.Config) wire.Limits {
	o := t.o
	budget := o.budget
	if cfg.RunBudgetNS > 0 {
		share := wire.RunShare(time.Duration(cfg.RunBudgetNS), cfg.RunTests)
		if budget == 0 || share < budget {
			budget = share
		}
		cfg.RunBudgetNS, cfg.RunTests = 0, 0
	}
	return wire.Limits{Schedules: o.schedules, Budget: budget, KeepGoing: o.keepGoing}
}

// finish reports the end of the run: an interrupt, the annotations and the
// coverage report written, the change checked, the summary.
func (t *testRun) finish(r *runner, args []string) {
	o, rep := t.o, r.rep
	if r.ctx.Err() != nil {
		rep.message("error", "", "", "", "interrupted")
	}
	if rep.annot != nil {
		if err := rep.annot.close(); err != nil {
			rep.message("error", "", "", "", err.Error())
		}
	}
	if rep.cov != nil {
		header := fmt.Sprintf("Run: gosct test %s (strategy %s, seed %d).", strings.Join(args, " "), o.strategy, o.seed)
		if err := rep.cov.write(header); err != nil {
			rep.message("error", "", "", "", err.Error())
		}
	}
	if t.since != nil {
		t.since.report(rep)
	}
	rep.summary()
}
