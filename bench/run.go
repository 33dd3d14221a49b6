package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/rewrite"
	"github.com/gosct/gosct/static"
)

// Config says how to run the benchmark.
type Config struct {
	// Root is the corpus directory (testprogs).
	Root       string
	Strategies []Strategy
	// Schedules is the schedule limit per run.
	Schedules int
	Seed      int64
	// Budget bounds one run's exploration time; 0 means none.
	Budget time.Duration
	// Jobs is how many test binaries run at once.
	Jobs int
	// Races is the race mode: "off", "report", or "auto" (report on the
	// Go-specific programs, off on the SCTBench ports, whose paper
	// detected assertion failures and deadlocks only).
	Races string
	// Minimize bounds the shrinking of each bug's schedule (0: none).
	Minimize time.Duration
	// TimerEarly, StepCost and LeakGrace are the runtime's time model
	// knobs (wire.Config), "" for its defaults.
	TimerEarly, StepCost, LeakGrace string
	// Log receives one line per build and run; nil for none.
	Log io.Writer
}

func (c *Config) races(p *Program) string {
	switch c.Races {
	case "auto", "":
		if p.Suite() == "sctbench" {
			return "off"
		}
		return "report"
	}
	return c.Races
}

// Run builds each program's instrumented test binary once and runs every
// strategy on it. Results come back for every (program, strategy), errors
// included; the error return is for a benchmark that cannot run at all.
func Run(ctx context.Context, c Config, ps []*Program) (Results, error) {
	if c.Jobs < 1 {
		c.Jobs = 1
	}
	tmp, err := os.MkdirTemp("", "gosct-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	rs := Results{}
	bins := c.build(ctx, tmp, ps, rs)

	type job struct {
		p *Program
		s Strategy
	}
	var jobs []job
	for _, p := range ps {
		if bins[p.Dir] == nil {
			continue
		}
		for _, s := range c.Strategies {
			jobs = append(jobs, job{p, s})
		}
	}
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for w := 0; w < c.Jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(jobs) || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				j := jobs[next]
				next++
				mu.Unlock()
				r := c.runOne(ctx, tmp, bins[j.p.Dir], j.p, j.s)
				mu.Lock()
				rs.Add(r)
				c.logf("%-45s %-9s %s", j.p.Dir, j.s.Name, describe(j.p, r))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return rs, ctx.Err()
}

// binary is a built test binary, with the guide of its build when a
// strategy needs one.
type binary struct {
	path, dir, importPath string
	guide                 string
}

// build instruments the programs module by module and builds one test
// binary per package. A program that cannot be built gets an error result
// for every strategy.
func (c *Config) build(ctx context.Context, tmp string, ps []*Program, rs Results) map[string]*binary {
	byMod := map[string][]*Program{}
	var mods []string
	for _, p := range ps {
		if byMod[p.Module] == nil {
			mods = append(mods, p.Module)
		}
		byMod[p.Module] = append(byMod[p.Module], p)
	}
	sort.Strings(mods)
	fail := func(p *Program, err error) {
		c.logf("%-45s build failed: %v", p.Dir, err)
		for _, s := range c.Strategies {
			rs.Add(&Result{Program: p.Dir, Strategy: s.Name, Buggy: -1, Err: "build: " + err.Error()})
		}
	}
	bins := map[string]*binary{}
	for _, m := range mods {
		modDir := filepath.Join(c.Root, filepath.FromSlash(m))
		var pats []string
		for _, p := range byMod[m] {
			rel, _ := filepath.Rel(modDir, filepath.Join(c.Root, filepath.FromSlash(p.Dir)))
			pats = append(pats, "./"+filepath.ToSlash(rel))
		}
		start := time.Now()
		ro := rewrite.Options{Dir: modDir, Patterns: pats}
		guide := ""
		if c.needGuide() {
			ro.Analyze = func(l *rewrite.Loaded) error {
				path, st, err := static.CachedGuide(l.Fset, l.Packages, l.CacheDir, static.Options{Races: c.Races != "off"})
				if err != nil {
					c.logf("no guide for %s: %v", modDir, err)
					return nil
				}
				c.logf("guide of %s: %d key sequences (cached: %v, %.1fs)", modDir, st.Seqs, st.Cached, st.All.Seconds())
				guide = path
				return nil
			}
		}
		b, err := rewrite.Instrument(ctx, ro)
		if err != nil {
			for _, p := range byMod[m] {
				fail(p, fmt.Errorf("instrument: %v", err))
			}
			continue
		}
		c.logf("instrumented %d packages of %s in %.1fs", len(b.Packages), modDir, time.Since(start).Seconds())
		byDir := map[string]*rewrite.Package{}
		for _, pkg := range b.Packages {
			byDir[filepath.Clean(pkg.Dir)] = pkg
		}
		for i, p := range byMod[m] {
			dir := filepath.Clean(filepath.Join(c.Root, filepath.FromSlash(p.Dir)))
			pkg := byDir[dir]
			if pkg == nil {
				fail(p, fmt.Errorf("the rewriter returned no package for %s", dir))
				continue
			}
			if len(pkg.Tests) == 0 {
				fail(p, fmt.Errorf("no test functions"))
				continue
			}
			out := filepath.Join(tmp, fmt.Sprintf("%s-%d-%s.test", filepath.Base(modDir), i, path.Base(pkg.ImportPath)))
			start := time.Now()
			if err := buildBinary(ctx, b.ModDir, b.Overlay, b.Flags, pkg.ImportPath, out); err != nil {
				fail(p, err)
				continue
			}
			c.logf("%-45s built in %.1fs", p.Dir, time.Since(start).Seconds())
			bins[p.Dir] = &binary{path: out, dir: dir, importPath: pkg.ImportPath, guide: guide}
		}
	}
	return bins
}

func (c *Config) needGuide() bool {
	for _, s := range c.Strategies {
		if s.needsGuide() {
			return true
		}
	}
	return false
}

// runOne runs strategy s on program p's binary.
func (c *Config) runOne(ctx context.Context, tmp string, bin *binary, p *Program, s Strategy) *Result {
	return c.runSeed(ctx, tmp, bin, p, s, c.Seed)
}

// runSeed runs strategy s on program p's binary with the given seed.
func (c *Config) runSeed(ctx context.Context, tmp string, bin *binary, p *Program, s Strategy, seed int64) *Result {
	r := &Result{Program: p.Dir, Strategy: s.Name, Buggy: -1}
	traces, err := os.MkdirTemp(tmp, "traces-")
	if err != nil {
		r.Err = err.Error()
		return r
	}
	defer os.RemoveAll(traces)
	cfg := wire.Config{
		Mode: "explore", Package: bin.importPath, Strategy: s.Strategy, Seed: seed,
		Schedules: c.Schedules, BudgetNS: int64(c.Budget), Depth: s.Depth, States: s.States, DFSRB: s.DFSRB, Walk: s.Walk,
		KeepGoing: s.CountBuggy, Races: c.races(p), TraceDir: traces, MinimizeNS: int64(c.Minimize),
		TimerEarly: c.TimerEarly, StepCost: c.StepCost, LeakGrace: c.LeakGrace,
	}
	if s.needsGuide() {
		cfg.Guide = bin.guide
	}
	timeout := 10 * time.Minute
	if c.Budget > 0 {
		// The runtime stops exploring at least 3 s before the timeout:
		// leave room above the budget for that margin and the report,
		// but not much more, since a run that hangs costs all of it.
		timeout = c.Budget + 10*time.Second
	}
	o, err := runBinary(ctx, bin.path, bin.dir, tmp, cfg, timeout)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	interpret(r, o, s, c.Schedules)
	checkStop(r, c.Budget, c.Schedules)
	checkTraces(r, traces)
	return r
}

// checkTraces checks the steps of every trace the run wrote
// (replay.CheckSteps): the interleavings its reports showed.
func checkTraces(r *Result, dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		t, err := replay.Read(f)
		if err != nil {
			r.StepErrors = append(r.StepErrors, err.Error())
			continue
		}
		r.Traces++
		for _, e := range replay.CheckSteps(t) {
			if len(r.StepErrors) < 5 {
				r.StepErrors = append(r.StepErrors, filepath.Base(f)+": "+e.Error())
			}
		}
	}
}

// interpret fills r from a run's events and output.
func interpret(r *Result, o *runOutcome, s Strategy, limit int) {
	r.WallS = o.wall.Seconds()
	tests := 0
	exhausted := true
	// bugTests are the tests that reported a bug; short are those that
	// ran fewer than limit schedules without exhausting the strategy.
	bugTests := map[string]bool{}
	var short []string
	for _, e := range o.events {
		if e.Event == "bug" {
			bugTests[e.Test] = true
		}
		if e.Event == "test" && !e.Exhausted && e.Schedules < limit {
			short = append(short, e.Test)
		}
	}
	for _, e := range o.events {
		switch e.Event {
		case "bug":
			if !r.Found || e.Schedule < r.First {
				r.Found, r.Kind, r.Message, r.First = true, e.Kind, e.Message, e.Schedule
				r.Size, r.From = e.Size, e.From
			}
		case "test":
			tests++
			r.Schedules += e.Schedules
			r.ExploreS += e.ElapsedS
			exhausted = exhausted && e.Exhausted
			r.Unproved = r.Unproved || e.Unproved
		}
	}
	r.Exhausted = tests > 0 && exhausted
	if s.CountBuggy && tests > 0 {
		r.Buggy = o.failed
		if r.Found && r.Buggy == 0 {
			// A bug that failed no schedule subtest: the count would
			// be wrong, so none is given.
			r.Buggy = -1
		}
	}
	switch {
	case tests == 0:
		r.Err = fmt.Sprintf("the test binary exited with status %d without reporting a test:\n%s", o.exit, o.tail)
	case !r.Found && o.exit != 0:
		r.Err = fmt.Sprintf("the test binary exited with status %d but reported no bug:\n%s", o.exit, o.tail)
	}
	for _, t := range short {
		// A test that stopped short without a bug ending it (or while
		// counting buggy schedules) ran out of budget.
		if !bugTests[t] || s.CountBuggy {
			r.Budget = true
		}
	}
}

// checkStop turns a run that stopped short of its limit without a reason
// into an error: not exhausted, no bug ended it, and the exploration took
// well under the budget, so the runtime gave up on its own (the figures of
// such a run say nothing about the strategy).
func checkStop(r *Result, budget time.Duration, limit int) {
	if !r.Budget || r.Err != "" || budget <= 0 {
		return
	}
	if limit > 0 && r.Schedules >= limit {
		// Results of an older bench summed tests into one flag: one
		// test exhausted, another reached the limit.
		r.Budget = false
		return
	}
	if r.ExploreS < 0.9*budget.Seconds() {
		r.Budget = false
		r.Err = fmt.Sprintf("exploration stopped after %d schedules in %.2fs, before the limit and the budget, without a bug or exhausting the strategy", r.Schedules, r.ExploreS)
	}
}

// describe is the log line of a run.
func describe(p *Program, r *Result) string {
	var s string
	switch {
	case r.Err != "":
		s = "ERROR " + firstLine(r.Err)
	case r.Found && p.IsFixed():
		s = fmt.Sprintf("FALSE ALARM %s at schedule %d", r.Kind, r.First)
	case r.Found:
		s = fmt.Sprintf("found %s at schedule %d", r.Kind, r.First)
	case p.IsFixed():
		s = "no bug (correct)"
	default:
		s = "MISSED"
	}
	if pc := r.BuggyPercent(); pc >= 0 {
		s += fmt.Sprintf(", %.2f%% buggy", pc)
	}
	extra := ""
	if r.Exhausted {
		extra = ", exhausted"
	}
	if r.Budget {
		extra += ", budget hit"
	}
	return fmt.Sprintf("%s; %d schedules in %.2fs (%.0f/s)%s", s, r.Schedules, r.WallS, r.SchedulesPerS(), extra)
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

func (c *Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", args...)
	}
}
