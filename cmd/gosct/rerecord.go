package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/rewrite"
	"github.com/gosct/gosct/strategies"
)

// gosct confirm needs a trace that records which goroutines could run at
// each decision (replay.Decision.Enabled): that is how it tells where the
// schedule departs from what Go does unprompted. An exploration in one
// process records them in a second, detailed run of the bug's schedule in
// the same process, right after the first; when the bug does not come
// back there (the first run changed package-level state the bug needs: a
// flag, a cache, a registry; or uncontrolled code did something else), the
// trace keeps the first run's decisions only. The fresh replay that
// confirms every bug (confirm.go) shows whether such a bug needs the state
// of the process or only its schedule: one that replays there came from
// the schedule, and a fresh process records it whole. So, with --confirm,
// the test is explored again with every schedule in a fresh process
// (--per-process), where every execution records its details, until the
// same bug (the same kind at the same place) comes back: first the
// schedule that found it alone (a strategy whose schedules are numbered
// seeks to it), then a search from the first schedule within the test's
// limits (a wall-clock budget of at least minRerecord). gosct confirm then
// uses that trace. The bug keeps its own trace in the report.

// rerecorded is what exploring a test again in fresh processes gave for
// one bug: the trace to confirm, or why there is none.
type rerecorded struct {
	trace string
	// note says where the trace came from, or why there is none.
	note string
	// failed: no trace.
	failed bool
}

// unrecorded reports whether the trace at path lacks the goroutines that
// could run at its decisions.
func unrecorded(path string) bool {
	t, err := replay.Read(path)
	if err != nil || len(t.Decisions) == 0 {
		return false
	}
	for _, d := range t.Decisions {
		if len(d.Enabled) > 0 {
			return false
		}
	}
	return true
}

// sameBug reports whether bug f, found again, is bug b: the same kind at
// the same place, as gosct confirm judges a run of go test.
func sameBug(b, f wire.Event) bool {
	return f.Kind == b.Kind && f.Test == b.Test && (f.Key != "" && f.Key == b.Key || f.Pos != "" && f.Pos == b.Pos)
}

// rerecord explores bug b's test again with every schedule in a fresh
// process, within the test's limits (r.limits), until b comes back, and
// keeps that trace next to b's (its name ending in -per-process.json).
// cfg is the exploration's configuration.
func (r *runner) rerecord(i int, pkg *rewrite.Package, bin string, cfg wire.Config, b wire.Event) rerecorded {
	dir, err := os.MkdirTemp(r.tmp, "rerecord-")
	if err != nil {
		return rerecorded{failed: true, note: err.Error()}
	}
	defer os.RemoveAll(dir)
	c := cfg
	c.Mode, c.Schedules, c.BudgetNS, c.PerProcess, c.KeepGoing = "explore", 1, 0, true, false
	c.State, c.TraceDir = filepath.Join(dir, "state"), filepath.Join(dir, "traces")
	c.RunBudgetNS, c.RunTests = 0, 0
	c.Shard, c.Shards, c.Total = 0, 0, 0 // the whole search: the bug may be anywhere in it
	test, _, _ := strings.Cut(b.Test, "/")
	lim := r.limits
	lim.KeepGoing = false
	if lim.Schedules <= 0 {
		lim.Schedules = strategies.DefaultSchedules
	}
	if lim.Budget > 0 && lim.Budget < minRerecord {
		// A budget sized for schedules in one process buys a handful
		// of processes.
		lim.Budget = minRerecord
	}
	start := time.Now()
	var prog wire.Progress
	found, at, alone := "", 0, false
	match := func(e wire.Event) {
		if e.Event == "bug" && found == "" && sameBug(b, e) && e.Trace != "" && !unrecorded(e.Trace) {
			found, at = e.Trace, e.Schedule
		}
	}
	if b.Schedule > 1 {
		// First the schedule that found it, alone: a strategy whose
		// schedules are numbered (random, pct, the portfolio) seeks
		// to it as a part of a divided search does (--shard), a part
		// of one schedule. Another strategy reports an error, and the
		// search below starts from the first.
		one := c
		one.State = filepath.Join(dir, "state-seek")
		one.Shard, one.Shards, one.Total = b.Schedule, b.Schedule, b.Schedule
		r.runProcess(i, pkg, bin, one, testPattern(test, r.run), match)
		alone = found != ""
	}
	for !lim.Done(prog) && r.ctx.Err() == nil && found == "" {
		var got *wire.Event
		res := r.runProcess(i, pkg, bin, c, testPattern(test, r.run), func(e wire.Event) {
			if e.Event == "test" {
				got = &e
			}
			match(e)
		})
		if found != "" || res == nil || got == nil {
			break // found, or the process could not run or ended early
		}
		prog.Schedules += got.Schedules
		prog.Exhausted = got.Exhausted
		prog.Elapsed = time.Since(start)
		if got.Schedules == 0 && got.Probes == 0 {
			break
		}
	}
	what := fmt.Sprintf("gosct explored %s again with every schedule in a fresh process (--per-process)", test)
	if found == "" {
		seek := ""
		if b.Schedule > 1 {
			seek = fmt.Sprintf("its schedule %d alone, then ", b.Schedule)
		}
		return rerecorded{failed: true, note: fmt.Sprintf("%s: %s%d schedules from the first, in %s, did not find it again", what, seek, prog.Schedules, time.Since(start).Round(100*time.Millisecond))}
	}
	keep := strings.TrimSuffix(b.Trace, ".json") + "-per-process.json"
	if err := copyFile(found, keep); err != nil {
		return rerecorded{failed: true, note: what + ": " + err.Error()}
	}
	how := fmt.Sprintf("found it again at schedule %d of a search from the first", at)
	if alone {
		how = fmt.Sprintf("found it again at schedule %d, run alone", at)
	}
	return rerecorded{trace: keep, note: fmt.Sprintf("%s, %s, and confirmed that trace: %s (the bug's own trace does not record which goroutines could run at each decision: the bug did not come back when gosct ran its schedule again in the process that found it)", what, how, keep)}
}

// minRerecord is the least wall-clock budget of rerecord's search: every
// schedule there starts a process.
const minRerecord = 30 * time.Second

// copyFile copies the file from to to, atomically: a run stopped while
// it writes leaves no half trace.
func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return writeFileAtomic(to, data)
}
