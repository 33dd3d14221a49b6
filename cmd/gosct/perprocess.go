package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/rewrite"
)

// Per-process mode (--per-process): every schedule of a test function runs
// in a fresh process of the test binary, for tests that cannot run twice
// in one process (package-level state, functions that must run once per
// process, goroutines started by init, os.Exit). Each process runs the one test, explores one
// schedule with the search resumed from the test's state file, saves it and
// exits; the command chains the processes and aggregates their events into
// what one in-process exploration would have reported.

// perProcess explores the test functions tests of pkg, one process per
// schedule. run is the user's --run pattern (its subtest levels apply).
func (r *runner) perProcess(i int, pkg *rewrite.Package, bin string, cfg wire.Config, run string, tests []string, lim wire.Limits) {
	if r.rep.progress != nil {
		r.rep.progress.begin(pkg.ImportPath, len(tests))
	}
	for _, test := range tests {
		if r.ctx.Err() != nil {
			return
		}
		r.perProcessTest(i, pkg, bin, cfg, testPattern(test, run), test, lim)
	}
}

// perProcessTest explores one test function until the stopping rules of an
// in-process exploration (wire.Limits) say so, from the processes' reports
// added up; or until a process reports nothing (an error, reported; with
// KeepGoing a schedule that ended its process is passed over).
func (r *runner) perProcessTest(i int, pkg *rewrite.Package, bin string, cfg wire.Config, pattern, test string, lim wire.Limits) {
	start := time.Now()
	total := wire.Event{Event: "test", Package: pkg.ImportPath, Test: test, Strategy: cfg.Strategy}
	var prog wire.Progress
	c := cfg
	c.Schedules, c.BudgetNS, c.PerProcess = 1, 0, true
	lastDraw := time.Time{}
	statePath := wire.StatePath(cfg.State, pkg.ImportPath, test)
	saved := 0 // schedules in the state file before the next process
	if st, err := wire.ReadState(statePath); err == nil && st != nil {
		saved = st.Schedules
		total.Resumed = saved
	}
	if r.rangeLen != 0 && c.Sharded() {
		// A shard of a ranged search runs what is left of its range.
		lim.Schedules = min(lim.Schedules, max(r.rangeLen-saved, 0))
	}
	for {
		if prog.Elapsed = time.Since(start); lim.Done(prog) {
			break
		}
		if r.ctx.Err() != nil {
			prog.Stopped = wire.StopInterrupted
			break
		}
		var got *wire.Event
		var found []wire.Event
		res := r.runProcess(i, pkg, bin, c, pattern, func(e wire.Event) {
			switch e.Event {
			case "test":
				got = &e
			case "progress":
			case "bug":
				found = append(found, e)
			default:
				r.event(pkg.ImportPath, e, "")
			}
		})
		unconfirmed := 0
		for _, b := range found {
			// Recorded in a fresh process, replayed in another, as
			// gosct replay will: a bug that does not come back came
			// from what uncontrolled code did (confirm.go).
			c := r.confirm(i, pkg, bin, b)
			if !c.replayed && r.ctx.Err() == nil {
				r.rep.message("warning", pkg.ImportPath, b.Test, b.Trace, carriedWarning(b, c))
				unconfirmed++
				continue
			}
			b.Replayed = c.replayed
			r.event(pkg.ImportPath, b, "")
		}
		if res == nil {
			break
		}
		if got == nil {
			// The process saved the search before its schedule: if it
			// got that far, the schedule ended the process.
			st, _ := wire.ReadState(statePath)
			if res.exitCode == 0 || st == nil || !st.Running || st.Schedules <= saved {
				r.check(pkg.ImportPath, res, []string{test}, nil)
				break
			}
			r.crashed(pkg.ImportPath, test, st.Schedules, res)
			prog.Schedules += st.Schedules - saved
			saved = st.Schedules
			if cfg.KeepGoing {
				continue
			}
			break
		}
		r.check(pkg.ImportPath, res, []string{test}, nil)
		saved = got.Resumed + got.Schedules
		prog.Schedules += got.Schedules
		prog.Bugs += got.Bugs - unconfirmed
		total.Probes += got.Probes
		prog.Exhausted, prog.Stopped, total.Status = got.Exhausted, got.Message, got.Status
		total.Unproved, total.NotProof = got.Unproved, got.NotProof // the last process saw the whole search's (saved) gaps
		if r.rep.out != nil {
			r.rep.out.observe(wire.Event{Event: "progress", Package: pkg.ImportPath, Test: test, Schedules: prog.Schedules})
		}
		if p := r.rep.progress; p != nil {
			p.observe([]wire.Event{{Event: "progress", Test: test, Schedules: prog.Schedules, Strategy: cfg.Strategy}})
			if time.Since(lastDraw) >= pollInterval {
				p.draw()
				lastDraw = time.Now()
			}
		}
		if got.Schedules == 0 && got.Probes == 0 {
			break // a process that ran nothing would run nothing again
		}
	}
	total.Schedules, total.Bugs, total.Exhausted, total.Message = prog.Schedules, prog.Bugs, prog.Exhausted, prog.Stopped
	total.ElapsedS = time.Since(start).Seconds()
	if r.rep.progress != nil {
		r.rep.progress.observe([]wire.Event{total})
	}
	r.rep.test(pkg.ImportPath, total)
}

// crashed reports a schedule that ended its process before the runtime
// could report it: os.Exit, log.Fatal, or a fatal error of Go's own
// (concurrent map writes, a crash in cgo). It is an error, not a bug: there
// is no trace, the decisions died with the process; but the saved search
// goes on past it.
func (r *runner) crashed(pkg, test string, schedule int, res *binaryResult) {
	if !r.stream {
		r.rep.output(pkg, res.output)
	}
	r.rep.message("error", pkg, test, "", fmt.Sprintf(
		"schedule %d ended the test binary (exit status %d) before it reported (os.Exit, log.Fatal or a fatal error of Go's: output above); the saved search goes on past it", schedule, res.exitCode))
}

// runProcess runs the test binary once under cfg on the tests pattern
// selects, passing every event to onEvent; nil when it could not run (an
// error, reported).
func (r *runner) runProcess(i int, pkg *rewrite.Package, bin string, cfg wire.Config, pattern string, onEvent func(wire.Event)) *binaryResult {
	cfg.Results = filepath.Join(r.tmp, fmt.Sprintf("%d-%d.results", i, time.Now().UnixNano()))
	args := []string{"-test.run=" + pattern, "-test.count=1"}
	if r.timeout != "" {
		args = append(args, "-test.timeout="+r.timeout)
	}
	if r.stream {
		args = append(args, "-test.v=true")
	}
	args = append(args, r.gt.run...)
	res, err := runBinary(r.ctx, binaryRun{
		bin: bin, dir: pkg.Dir, cfg: cfg, args: args, stream: r.stream, ownProgress: true,
		onEvent: onEvent,
	}, r.rep)
	os.Remove(cfg.Results)
	if err != nil {
		r.rep.message("error", pkg.ImportPath, "", "", err.Error())
		return nil
	}
	return res
}

// testPattern is the -test.run of one test function's exploration: the
// test anchored, so that no other test whose name it is a prefix of runs,
// with the subtest levels of the user's pattern.
func testPattern(test, run string) string {
	levels := []string{""}
	if run != "" {
		levels = splitRun(run)
	}
	levels[0] = "^" + regexp.QuoteMeta(test) + "$"
	return explorePattern(strings.Join(levels, "/"))
}

// testsPattern is the -test.run of the exploration of exactly the test
// functions tests (a shard's), with the subtest levels of the user's
// pattern.
func testsPattern(tests []string, run string) string {
	levels := []string{""}
	if run != "" {
		levels = splitRun(run)
	}
	quoted := make([]string, len(tests))
	for i, t := range tests {
		quoted[i] = regexp.QuoteMeta(t)
	}
	levels[0] = "^(" + strings.Join(quoted, "|") + ")$"
	return explorePattern(strings.Join(levels, "/"))
}
