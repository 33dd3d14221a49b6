package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
)

// Version is gosct's version, recorded in traces (set in package wire).
const Version = wire.Version

// trailStrategy takes the decisions of a recorded trail again; past its
// end, or where a choice is not available, it takes the first choice and
// notes the divergence.
type trailStrategy struct {
	trail    []decision
	i        int
	diverged bool
}

//go:norace
func (s *trailStrategy) NewExecution() bool { s.i = 0; return true }

//go:norace
func (s *trailStrategy) Next(p *strategies.Point) int {
	if s.i >= len(s.trail) {
		s.diverged = true
		return 0
	}
	d := s.trail[s.i]
	s.i++
	if d.kind != p.Kind {
		s.diverged = true
		return 0
	}
	if j := p.Index(int(d.choice)); j >= 0 {
		return j
	}
	s.diverged = true
	return 0
}

// found handles a buggy execution: deduplicate, re-run the same schedule
// recording source positions (which also checks that it replays), write
// the trace, and report.
//
//go:norace
func (x *explorer) found(e *execution, body func(*testing.T)) {
	b := e.bug
	if x.seen[b.key] {
		return
	}
	x.seen[b.key] = true
	x.bugs++
	if x.replayer != nil {
		x.emit(&wire.Event{
			Event:    "bug",
			Kind:     b.kind,
			Schedule: x.schedules,
			Trace:    x.c.Trace,
			Message:  b.message,
			Report:   b.report(),
			Key:      b.key,
			Replayed: x.replayer.Diverged() == nil && x.trace0.Bug != nil && b.kind == x.trace0.Bug.Kind,
		})
		return
	}

	re, replayed := e, true // an execution that recorded its details (per process)
	if !x.set.detailed {
		set := x.set
		set.detailed = true
		rs := &trailStrategy{trail: e.trail}
		re, _ = x.runOnce("schedule_"+itoa(x.schedules)+"_replay", rs, set, body)
		replayed = re.bug != nil && re.bug.kind == b.kind && !rs.diverged
	}
	if replayed && b.kind == kindRace {
		// The detailed re-run knows where the earlier access was.
		b.message, b.gs = re.bug.message, re.bug.gs
	}
	src := re
	if !replayed {
		src = e // keep what the original run recorded
	}
	tr := x.trace(e, src, replayed)
	report := b.report()
	if replayed {
		report += "\n" + interleaving(re, 40)
	}
	path, err := x.writeTrace(tr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gosct: %v\n", err)
	}
	x.emit(&wire.Event{
		Event:    "bug",
		Kind:     b.kind,
		Schedule: x.schedules,
		Trace:    path,
		Message:  b.message,
		Report:   report,
		Key:      b.key,
		Replayed: replayed,
	})
}

// trace builds the trace of execution e; detail is the detailed re-run of
// the same schedule (or e itself when the re-run did not reproduce it).
//
//go:norace
func (x *explorer) trace(e, detail *execution, replayed bool) *replay.Trace {
	tr := &replay.Trace{
		Format:       replay.Format,
		Gosct:        Version,
		Go:           runtime.Version(),
		Package:      x.c.Package,
		Test:         x.t.Name(),
		Strategy:     x.strategyName(),
		Seed:         x.c.Seed,
		Schedule:     x.schedules,
		Uncontrolled: e.uncontrolled || !replayed,
		Params:       map[string]any{},
	}
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
	for i, d := range e.trail {
		td := replay.Decision{Kind: d.kind.String(), Choice: int(d.choice), G: int(d.cur)}
		if i < len(detail.ops) {
			op := detail.ops[i]
			if j := strings.LastIndexByte(op, ' '); j >= 0 {
				td.Op, td.Pos = op[:j], op[j+1:]
			} else {
				td.Op = op
			}
		}
		tr.Decisions = append(tr.Decisions, td)
	}
	b := e.bug
	tr.Bug = &replay.Bug{Kind: b.kind, Message: b.message, Report: b.report()}
	for _, g := range b.gs {
		tr.Bug.Goroutines = append(tr.Bug.Goroutines, replay.Goroutine{ID: g.id, Created: g.created, State: g.state, WaitingOn: g.waiting, Stack: g.stack})
	}
	return tr
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
	path := filepath.Join(dir, sanitize(tr.Test)+"-"+tr.Bug.Kind+"-"+itoa(tr.Schedule)+".json")
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
