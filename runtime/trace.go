package runtime

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
)

// Version is gosct's version, recorded in traces (set in package wire).
const Version = wire.Version

// found handles a buggy execution: deduplicate, re-run the same schedule
// recording source positions (which also checks that it replays), write
// the trace, and report. checked is the determinism check's second run of
// the schedule, if there was one: it is that re-run, and same says whether
// it agreed with the first.
//
//go:norace
func (x *explorer) found(e *execution, body func(*testing.T), checked *execution, same bool) {
	b := e.bug
	if x.seen[b.key] {
		if x.seenBefore[b.key] {
			// The schedule's subtest failed, and so will the
			// process: the command must know it was for a bug,
			// one an earlier process reported, and not take it for
			// a failure outside the schedules.
			delete(x.seenBefore, b.key)
			x.emit(&wire.Event{Event: "known", Kind: b.kind, Schedule: x.number(), Key: b.key})
		}
		return
	}
	x.seen[b.key] = true
	x.bugs++
	if x.replayer != nil {
		// The replay prints the report the run that wrote the trace
		// printed: its schedule's size and its interleaving, from this
		// run's own steps.
		followed := x.replayer.Diverged() == nil
		var shrunk *replay.Minimized
		if followed {
			shrunk = x.trace0.Minimized
		}
		size := sizeOf(e)
		b.timing = timingNeeds(e.record.earlies)
		x.emit(&wire.Event{
			Event:    "bug",
			Kind:     b.kind,
			Schedule: x.number(),
			Trace:    x.c.Trace,
			Message:  b.message,
			Timing:   b.timing,
			Report:   b.report() + "\n" + sizeNote(size, shrunk) + "\n" + interleaving(e, 40),
			Key:      b.key,
			Pos:      b.where(),
			Replayed: followed && x.trace0.Bug != nil && b.kind == x.trace0.Bug.Kind,
			Size:     wireSize(size),
			From:     fromSize(shrunk),
		})
		return
	}

	re, replayed := e, true // an execution that recorded its details (per process)
	var shrunk *replay.Minimized
	switch {
	case checked != nil: // the determinism check ran it again already
		re = checked
		replayed = same && re.bug != nil && re.bug.kind == b.kind
	case !x.set.detailed:
		if x.c.MinimizeNS > 0 && !e.uncontrolled {
			// The trace holds the smallest schedule of the same bug.
			if m, info := x.minimize(e, body); info != nil {
				e, b, shrunk = m, m.bug, info
			}
		}
		set := x.set
		set.detailed = true
		rs := replay.NewReplayer(x.trace(e, nil))
		re, _ = x.runOnce("schedule_"+itoa(x.number())+"_replay", rs, set, e.in.inputs, body)
		replayed = re.bug != nil && re.bug.kind == b.kind && rs.Finish() == nil
	}
	if replayed && b.kind == kindRace {
		// The detailed re-run knows where the earlier access was.
		b.message, b.gs, b.more = re.bug.message, re.bug.gs, re.bug.more
	}
	src := re
	if !replayed {
		src = e // keep what the original run recorded
	}
	b.timing = timingNeeds(src.record.earlies)
	tr := x.trace(e, src)
	tr.Uncontrolled = tr.Uncontrolled || !replayed
	tr.Minimized = shrunk
	x.describe(tr, e)
	size := sizeOf(e)
	report := b.report() + "\n" + sizeNote(size, shrunk) + "\n"
	if replayed {
		report += interleaving(re, 40)
	}
	if note := uncontrolledNote(src.in.sources); note != "" {
		report += "\n" + note
	}
	path, err := x.writeTrace(tr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gosct: %v\n", err)
	}
	x.emit(&wire.Event{
		Event:    "bug",
		Kind:     b.kind,
		Schedule: x.number(),
		Trace:    path,
		Message:  b.message,
		Timing:   b.timing,
		Report:   report,
		Key:      b.key,
		Pos:      b.where(),
		Replayed: replayed,
		Size:     wireSize(size),
		From:     fromSize(shrunk),
	})
}

// trace builds the trace of execution e: its decisions, inputs and
// free controls; detail, the detailed run of the same schedule (e itself,
// or a re-run), adds the operation of each decision and the source log.
// This, with the runtime's trail, is gosct's one recorder: a trace to write,
// to replay in the runtime or to check determinism with.
//
//go:norace
func (x *explorer) trace(e, detail *execution) *replay.Trace {
	tr := &replay.Trace{
		Format:       replay.Format,
		Test:         x.t.Name(),
		Seed:         x.c.Seed,
		Schedule:     x.number(),
		Uncontrolled: e.uncontrolled,
		Inputs:       e.in.record(x.set.free, e.models.carried),
		Decisions:    make([]replay.Decision, 0, len(e.trail)),
	}
	ci := 0
	for i, d := range e.trail {
		td := replay.Decision{Kind: d.kind.String(), Choice: int(d.choice), G: int(d.cur)}
		for ; ci < len(e.record.charges) && e.record.charges[ci].at <= i; ci++ {
			if e.record.charges[ci].at == i {
				td.ChargedNS += int64(e.record.charges[ci].d)
			}
		}
		if detail != nil && i < len(detail.stepLog.ops) {
			td.Op, td.Pos = detail.stepLog.ops[i].Name, detail.stepLog.ops[i].Pos
			if i < len(detail.stepLog.enabled) {
				td.Enabled = copyInts(detail.stepLog.enabled[i])
			}
		}
		tr.Decisions = append(tr.Decisions, td)
	}
	if detail != nil {
		tr.Sources = detail.in.sources
		tr.Uncontrolled = tr.Uncontrolled || detail.uncontrolled
		tr.Steps = detail.stepLog.rows
		tr.Stacks = detail.stepLog.stacks
		tr.Goroutines = lanes(detail.gs)
	}
	return tr
}

// describe adds what a trace file says beyond the schedule: where and
// what was run, with which strategy, the bug, and the instrumented files'
// hashes.
//
//go:norace
func (x *explorer) describe(tr *replay.Trace, e *execution) {
	tr.Gosct = Version
	tr.Go = runtime.Version()
	tr.Package = x.c.Package
	tr.Module = x.c.Module
	if wd, err := os.Getwd(); err == nil {
		tr.Dir = wd // go test runs the binary in the package's directory
	}
	tr.Strategy = x.strategyName()
	tr.Params = map[string]any{}
	if x.c.Bound > 0 {
		tr.Params["bound"] = x.c.Bound
	}
	if x.c.Depth > 0 {
		tr.Params["depth"] = x.c.Depth
	}
	if x.c.Races != "" {
		tr.Params["races"] = x.c.Races
	}
	if x.c.Deps {
		tr.Params["deps"] = true
	}
	if x.c.Sharded() {
		tr.Params["shard"] = fmt.Sprintf("%d/%d", x.c.Shard, x.c.Shards)
	}
	tr.Params["timer_early"] = x.set.timerEarly.String()
	tr.Params["leak_grace"] = x.set.leakGrace.String()
	tr.Params["step_cost"] = calibratedCost
	if x.set.uniformCost {
		tr.Params["step_cost"] = x.set.stepCost.String()
	}
	tr.Files = x.files()
	if b := e.bug; b != nil {
		tr.Bug = &replay.Bug{Kind: b.kind, Message: b.message, Report: b.report(), Timing: b.timing}
		for _, g := range b.gs {
			tr.Bug.Goroutines = append(tr.Bug.Goroutines, replay.Goroutine{ID: g.id, Created: g.created, State: g.state, WaitingOn: g.waiting, Stack: g.stack})
		}
	}
}

// writeTrace writes tr atomically into the trace directory and returns its path.
//
//go:norace
func (x *explorer) writeTrace(tr *replay.Trace) (string, error) {
	dir := x.c.TraceDir
	if dir == "" {
		dir = "gosct-traces"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("writing trace: %w", err)
	}
	name := sanitize(tr.Test) + "-" + tr.Bug.Kind + "-" + itoa(tr.Schedule)
	if x.c.Sharded() {
		// The parts of a divided tree number their schedules each
		// from 1: two parts writing to one directory must not collide.
		name += fmt.Sprintf("-shard-%d-of-%d", x.c.Shard, x.c.Shards)
	}
	path := filepath.Join(dir, name+".json")
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path, replay.Write(path, tr)
}

//go:norace
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// strategyName names the strategy that decided the current execution: the
// member of a portfolio.
//
//go:norace
func (x *explorer) strategyName() string {
	if p, ok := x.strat.(interface{ Member() string }); ok {
		return x.c.Strategy + ":" + p.Member()
	}
	return x.c.Strategy
}

// uncontrolledNote names, for a bug report, the sources of nondeterminism
// gosct does not control that the execution read; "" when there were none.
//
//go:norace
func uncontrolledNote(sources []replay.Source) string {
	seen := map[string]bool{}
	var lines []string
	for _, s := range sources {
		if s.Controlled || s.Kind == "map order" || s.Kind == "rand" || s.Kind == "time" || s.Kind == "goroutines" || s.Kind == "crypto/rand" {
			continue
		}
		l := s.Kind + ": " + s.What
		if s.Pos != "" {
			l += " at " + s.Pos
		}
		if seen[l] {
			continue
		}
		seen[l] = true
		if len(lines) == 5 {
			lines = append(lines, "        ...")
			break
		}
		lines = append(lines, "        "+l)
	}
	if len(lines) == 0 {
		return ""
	}
	return "    read from sources gosct does not control (the schedule may not replay if they change):\n" + strings.Join(lines, "\n")
}

// files are the hashes of the package's instrumented files, by path
// relative to the module root, as the command computed them
// (wire.Config.Files); nil when unknown.
//
//go:norace
func (x *explorer) files() map[string]string {
	x.filesOnce.Do(func() {
		if x.c.Files == "" {
			return
		}
		b, err := os.ReadFile(x.c.Files)
		if err == nil {
			err = json.Unmarshal(b, &x.fileHash)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "gosct: reading the file hashes: %v\n", err)
			x.fileHash = nil
		}
	})
	return x.fileHash
}

// copyInts returns a copy of s, element by element (slices.go).
//
//go:norace
func copyInts(s []int) []int {
	if s == nil {
		return nil
	}
	c := make([]int, len(s))
	for i, v := range s {
		c[i] = v
	}
	return c
}
