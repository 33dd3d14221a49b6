package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/rewrite"
	"github.com/spf13/pflag"
)

const replayUsage = `usage: gosct replay [flags] TRACE [-- go test flags]

It prints the bug's report as gosct test did, with the interleaving;
--step then walks the schedule one step at a time.

Rebuilds the trace's package and runs its test once under the recorded
schedule, with the recorded inputs (random draws, map orders, clock).
Exit status 1 when the bug happens again, 0 when the schedule ran without
it, 2 on errors, or when the program no longer follows the trace (it says
where, and the likely source) and --continue is not given. The package is
found in the directory the trace names, else in the trace's module where
the trace or the working directory is (any checkout of the module); build
flags the original run used (-tags, -race) go after --.

Flags:
`

// replayOptions is the parsed command line of `gosct replay`.
type replayOptions struct {
	cont      bool
	verbose   bool
	json      bool
	schedules int
	repeat    int
	step      bool
	traceDir  string
	trace     string
	gotest    goTestFlags
}

func parseReplay(args []string) (*replayOptions, *pflag.FlagSet, error) {
	o := &replayOptions{}
	fs := pflag.NewFlagSet("gosct replay", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.BoolVar(&o.cont, "continue", false, "after a divergence, keep exploring from the diverged point")
	fs.IntVar(&o.schedules, "schedules", 100, "with --continue: how many schedules to explore from the diverged point")
	fs.StringVar(&o.traceDir, "trace-dir", "", "with --continue: where traces of new bugs are written")
	fs.IntVar(&o.repeat, "repeat", 1, "replay N times, each in a fresh process, and say how many reproduced the bug")
	fs.BoolVar(&o.step, "step", false, "after the replay, walk its steps one at a time (goroutine, operation, source line)")
	fs.BoolVar(&o.json, "json", false, "one JSON object per line on stdout")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "print the test binary's output")
	if err := parseFlags(fs, args); err != nil {
		return nil, fs, err
	}
	pos := fs.Args()
	if dash := fs.ArgsLenAtDash(); dash >= 0 {
		gt, err := parseGoTestFlags(pos[dash:])
		if err != nil {
			return nil, fs, err
		}
		o.gotest = *gt
		pos = pos[:dash]
	}
	switch {
	case len(pos) == 0:
		return nil, fs, usagef("no trace given (gosct replay TRACE)")
	case len(pos) > 1:
		return nil, fs, usagef("one trace at a time, got %d arguments", len(pos))
	case o.schedules < 1:
		return nil, fs, usagef("--schedules must be at least 1, not %d", o.schedules)
	case o.repeat < 1:
		return nil, fs, usagef("--repeat must be at least 1, not %d", o.repeat)
	case o.repeat > 1 && o.cont:
		return nil, fs, usagef("--repeat and --continue do not go together")
	case o.step && (o.json || o.repeat > 1 || o.cont):
		return nil, fs, usagef("--step goes with neither --json, --repeat nor --continue")
	}
	o.trace = pos[0]
	if o.gotest.verbose {
		o.verbose = true
	}
	return o, fs, nil
}

func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, fs, err := parseReplay(args)
	if errors.Is(err, errHelp) {
		return printUsage(stdout, replayUsage, fs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gosct replay: %v\n", err)
		return exitError
	}
	tracePath, t, err := openTrace(o.trace)
	if err != nil {
		fmt.Fprintf(stderr, "gosct replay: %v\n", err)
		return exitError
	}
	if t.Package == "" {
		fmt.Fprintf(stderr, "gosct replay: %s names no package\n", o.trace)
		return exitError
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "gosct replay: %v\n", err)
		return exitError
	}
	b, err := instrumentTracePackage(ctx, t, tracePath, cwd, o.gotest.tags)
	if err != nil {
		fmt.Fprintf(stderr, "gosct replay: %s (run gosct replay inside the module of %s)\n", instrumentError(err), t.Package)
		return exitError
	}
	var pkg *rewrite.Package
	for _, p := range b.Packages {
		if p.ImportPath == t.Package {
			pkg = p
		}
	}
	top := strings.SplitN(t.Test, "/", 2)[0]
	if pkg == nil || !contains(pkg.Tests, top) {
		fmt.Fprintf(stderr, "gosct replay: package %s has no test %s any more\n", t.Package, top)
		return exitError
	}
	traceDir := ""
	if o.cont {
		if traceDir, err = prepareTraceDir(o.traceDir); err != nil {
			fmt.Fprintf(stderr, "gosct replay: %v\n", err)
			return exitError
		}
	}
	tmp, err := os.MkdirTemp("", "gosct-")
	if err != nil {
		fmt.Fprintf(stderr, "gosct replay: %v\n", err)
		return exitError
	}
	defer os.RemoveAll(tmp)
	if traceDir == "" {
		// Replay writes no trace of its own worth keeping: the user has it.
		traceDir = tmp
	}

	rep := newReporter(stdout, stderr, o.json, o.verbose, t.Strategy, t.Seed)
	for _, w := range b.Warnings {
		rep.message("warning", "", "", "", w)
	}
	if t.Uncontrolled {
		rep.message("warning", t.Package, t.Test, tracePath, "the recorded execution depended on something gosct does not control: the replay may differ")
	}
	r := &runner{ctx: ctx, rep: rep, tmp: tmp, build: b, gt: &o.gotest, stream: o.verbose, timeout: o.gotest.timeout}
	bin, ok := r.buildPackage(0, pkg)
	if !ok {
		return exitError
	}
	schedules := 1
	if o.cont {
		schedules = o.schedules
	}
	cfg := wire.Config{
		Mode: "replay", Package: t.Package, Strategy: t.Strategy, Seed: t.Seed, Schedules: schedules, Deps: t.Params["deps"] == true,
		Trace: tracePath, Continue: o.cont, TraceDir: traceDir,
	}
	r.describePackage(0, pkg, &cfg)
	if changed := changedFiles(t, r.files[pkg.Dir]); len(changed) > 0 {
		rep.message("warning", t.Package, t.Test, tracePath, fmt.Sprintf("%s changed since the trace was written: the replay may diverge", strings.Join(changed, ", ")))
	}
	res := r.runTests(0, pkg, bin, cfg, exactRun(t.Test), []string{top}, "")
	if res == nil {
		return exitError
	}
	status := replayOutcome(rep, res, o.cont, t)
	if o.step && status != exitError {
		walkSteps(t, pkg.Dir, stdin, stdout)
	}
	if o.repeat == 1 {
		return status
	}
	// The other replays, each in a fresh process, reported only by
	// their count: the first one showed what happened.
	counts := map[int]int{status: 1}
	for k := 1; k < o.repeat && ctx.Err() == nil; k++ {
		quiet := newReporter(io.Discard, io.Discard, false, false, t.Strategy, t.Seed)
		r.rep = quiet
		res := r.runTests(0, pkg, bin, cfg, exactRun(t.Test), []string{top}, "")
		st := exitError
		if res != nil {
			st = replayOutcome(quiet, res, false, t)
		}
		counts[st]++
	}
	r.rep = rep
	return repeatOutcome(rep, counts, o.repeat)
}

// repeatOutcome sums up --repeat: the exit status of the replays if they
// all had the same, else 2, saying how many reproduced the bug.
func repeatOutcome(rep *reporter, counts map[int]int, n int) int {
	bug := counts[exitBug]
	if counts[exitBug] == n || counts[exitOK] == n || counts[exitError] == n {
		rep.message("info", "", "", "", fmt.Sprintf("the trace's bug happened again in %d of %d replays", bug, n))
		for st := range counts {
			return st
		}
	}
	rep.message("error", "", "", "", fmt.Sprintf("the replays differ: the trace's bug happened again in %d of %d (%d ran without it, %d diverged or failed): the schedule depends on something gosct does not control; gosct test --check-determinism names it", bug, n, counts[exitOK], counts[exitError]))
	return exitError
}

// changedFiles lists the files of the trace whose content differs from
// the current ones (hashes in the JSON file files).
func changedFiles(t *replay.Trace, files string) []string {
	if len(t.Files) == 0 || files == "" {
		return nil
	}
	data, err := os.ReadFile(files)
	if err != nil {
		return nil
	}
	var live map[string]string
	if json.Unmarshal(data, &live) != nil {
		return nil
	}
	return replay.ChangedFiles(t.Files, live)
}

// replayOutcome prints what the replay showed and returns the exit status:
// 1 when the trace's bug (or, with --continue, any bug) happened, 2 when
// the program diverged from the trace without --continue or the run failed,
// 0 when the schedule ran to its end without the bug.
func replayOutcome(rep *reporter, res *binaryResult, cont bool, t *replay.Trace) int {
	bugs, diverged, replayed, sameKind := 0, false, false, false
	for _, e := range res.events {
		switch e.Event {
		case "bug":
			bugs++
			replayed = replayed || e.Replayed
			sameKind = sameKind || t.Bug != nil && e.Kind == t.Bug.Kind
		case "diverged":
			diverged = true
		}
	}
	switch {
	case replayed:
		rep.message("info", "", "", "", "the trace's bug happened again")
		return exitBug
	case bugs > 0 && diverged && sameKind:
		rep.message("info", "", "", "", fmt.Sprintf("the exploration from the diverged point found a %s again", t.Bug.Kind))
		return exitBug
	case bugs > 0:
		rep.message("info", "", "", "", fmt.Sprintf("a bug happened, not the one the trace recorded (%s)", bugName(t)))
		return exitBug
	case diverged && !cont:
		rep.message("error", "", "", "", "the program no longer follows the trace (see above); --continue explores from the diverged point")
		return exitError
	case rep.errors > 0:
		return exitError
	case diverged:
		rep.message("info", "", "", "", fmt.Sprintf("no bug in the schedules explored from the diverged point (the trace had %s)", bugName(t)))
		return exitOK
	}
	rep.message("info", "", "", "", fmt.Sprintf("the schedule ran to its end without the bug (the trace had %s)", bugName(t)))
	return exitOK
}

func bugName(t *replay.Trace) string {
	if t.Bug == nil {
		return "no bug recorded"
	}
	return fmt.Sprintf("%s: %s", t.Bug.Kind, firstLine(t.Bug.Message))
}

// instrumentTracePackage instruments the trace's package, looking for it
// in turn in the directory the trace recorded (the machine that wrote it),
// in a checkout of the trace's module holding the trace file or the
// working directory (a trace written elsewhere: CI, a colleague), and
// finally by import path from cwd.
func instrumentTracePackage(ctx context.Context, t *replay.Trace, tracePath, cwd, tags string) (*rewrite.Build, error) {
	// Built as it was recorded: with the dependency modules instrumented
	// or not (their hooks are scheduling points of the trace).
	deps, _ := t.Params["deps"].(bool)
	try := func(dir string) *rewrite.Build {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil
		}
		b, err := instrument(ctx, rewrite.Options{Dir: dir, Patterns: []string{"."}, Tags: tags, Deps: deps})
		if err != nil {
			return nil
		}
		for _, p := range b.Packages {
			if p.ImportPath == t.Package {
				return b
			}
		}
		return nil
	}
	if t.Dir != "" {
		if b := try(t.Dir); b != nil {
			return b, nil
		}
	}
	if d := findPackageDir(t.Module, t.Package, filepath.Dir(tracePath), cwd); d != "" {
		if b := try(d); b != nil {
			return b, nil
		}
	}
	return instrument(ctx, rewrite.Options{Dir: cwd, Patterns: []string{t.Package}, Tags: tags, Deps: deps})
}

// openTrace reads the trace a command was given (replay, confirm, view)
// and returns its absolute path too: a trace's package is looked for
// relative to it when the directory it recorded has moved.
func openTrace(arg string) (string, *replay.Trace, error) {
	path, err := filepath.Abs(arg)
	if err != nil {
		return "", nil, err
	}
	t, err := replay.Read(path)
	return path, t, err
}
