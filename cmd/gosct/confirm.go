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
)

// Every bug is confirmed in a fresh process before it is reported: its
// trace is replayed there, as `gosct replay` will run it for the user. A
// test binary explores the schedules of a test one after the other in one
// process, so a schedule starts from whatever package-level state the
// earlier ones left (a registry, a cache, a counter), as the second run of
// go test -count=2 does. A bug that does not come back in a fresh process
// came from that state, not from the schedule: it is not reported as a
// bug but as a warning of the test naming the state, and the test is
// explored again with every schedule in a fresh process (--per-process),
// where no state is carried.

// confirmation is what the fresh replay of a bug's trace said.
type confirmation struct {
	replayed bool
	// diverged is the replay's divergence message, if it diverged.
	diverged string
	// onces are the positions of the sync.Once calls whose Once an
	// earlier schedule had done (the trace's Inputs.Onces).
	onces []string
	// uncontrolled: the trace depended on uncontrolled code.
	uncontrolled bool
	// replays counts the fresh replays run, followed those that ran the
	// schedule to its end (without the bug, when not replayed).
	replays, followed int
}

// confirmTries is how many fresh replays a bug gets whose schedule
// depended on uncontrolled code, or whose replay diverged: what that code
// did, or what gosct did not control (the clock's readings around
// uncontrolled code: go-co-op/gocron's monitor tests replay 3 times of 5),
// may differ from one process to the next. A replay that diverged did
// not run the schedule, so it says nothing of state carried between
// schedules; one that ran the schedule to its end without the bug does.
const confirmTries = 3

// confirm replays bug b's trace in a fresh process of the package's test
// binary.
func (r *runner) confirm(i int, pkg *rewrite.Package, bin string, b wire.Event) confirmation {
	var c confirmation
	if b.Trace == "" {
		return c
	}
	t, err := replay.Read(b.Trace)
	if err != nil {
		return c
	}
	if t.Inputs != nil {
		c.onces = t.Inputs.Onces
	}
	c.uncontrolled = t.Uncontrolled
	tries := 1
	if t.Uncontrolled {
		tries = confirmTries
	}
	for n := 0; n < tries && !c.replayed && r.ctx.Err() == nil; n++ {
		dir := filepath.Join(r.tmp, fmt.Sprintf("%d-confirm-%d", i, time.Now().UnixNano()))
		cfg := wire.Config{
			Mode: "replay", Package: pkg.ImportPath, Strategy: t.Strategy, Seed: t.Seed, Schedules: 1,
			Trace: b.Trace, TraceDir: dir,
		}
		r.describePackage(i, pkg, &cfg)
		diverged := false
		r.runProcess(i, pkg, bin, cfg, exactRun(t.Test), func(e wire.Event) {
			switch {
			case e.Event == "bug" && e.Kind == b.Kind && e.Replayed:
				c.replayed = true
			case e.Event == "diverged":
				diverged = true
				if c.diverged == "" {
					c.diverged = e.Message
				}
			}
		})
		os.RemoveAll(dir)
		c.replays++
		if diverged {
			tries = confirmTries
		} else {
			c.followed++
		}
	}
	return c
}

// carriedWarning is the warning that replaces bug b, which its fresh
// replay did not confirm.
func carriedWarning(b wire.Event, c confirmation) string {
	var why []string
	for _, o := range c.onces {
		why = append(why, "the sync.Once at "+o+", done by an earlier schedule")
	}
	if b.Schedule > 1 {
		why = append(why, fmt.Sprintf("package-level variables the %d earlier schedules of the test and the tests before it left", b.Schedule-1))
	} else {
		why = append(why, "package-level variables the tests before it left")
	}
	if c.uncontrolled {
		why = append(why, "what uncontrolled code did in that process")
	}
	msg := fmt.Sprintf("the %s found at schedule %d (%s) does not happen again when its trace is replayed in a fresh process: it came from state carried between the schedules of one process, not from the schedule",
		b.Kind, b.Schedule, shortLine(b.Message))
	if c.replays > 1 && c.followed == 0 {
		// No replay ran the schedule: they do not show that the bug
		// needs the process's state.
		msg = fmt.Sprintf("the %s found at schedule %d (%s) was not seen again when its trace was replayed in a fresh process: all %d replays diverged from the schedule, which depends on something gosct does not control, or on state carried between the schedules of one process",
			b.Kind, b.Schedule, shortLine(b.Message), c.replays)
	}
	if len(why) > 0 {
		msg += " (" + strings.Join(why, "; ") + ")"
	}
	if c.diverged != "" {
		first := "the replay "
		if c.replays > 1 {
			first = "the first replay "
		}
		msg += "; " + first + strings.TrimPrefix(c.diverged, b.Test+": ")
	}
	if c.replays > 1 && c.followed == 0 {
		return msg + "; not reported as a bug"
	}
	msg += "; not reported as a bug (go test -count=2 -run '^" + b.Test + "$' shows the same)"
	return msg
}

// shortLine is the first line of s, cut to 200 bytes.
func shortLine(s string) string {
	s = firstLine(s)
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// carried holds, for one run of a test binary, the tests whose bugs the
// fresh replays did not confirm.
type carried struct {
	tests []string       // in the order found
	bugs  map[string]int // unconfirmed bugs per test
}

func (c *carried) add(test string) {
	if c.bugs == nil {
		c.bugs = map[string]int{}
	}
	if c.bugs[test] == 0 {
		c.tests = append(c.tests, test)
	}
	c.bugs[test]++
}

// reexplore explores each test whose bug came from carried state again,
// with a fresh process per schedule, where none is carried.
func (r *runner) reexplore(i int, pkg *rewrite.Package, bin string, cfg wire.Config, c *carried) {
	if len(c.tests) == 0 || r.ctx.Err() != nil {
		return
	}
	dir, err := os.MkdirTemp(r.tmp, "reexplore-")
	if err != nil {
		r.rep.message("error", pkg.ImportPath, "", "", err.Error())
		return
	}
	defer os.RemoveAll(dir)
	cfg.State = dir
	for _, test := range c.tests {
		r.rep.message("info", pkg.ImportPath, test, "", "exploring it again with every schedule in a fresh process (--per-process), where no state is carried between schedules")
		r.perProcessTest(i, pkg, bin, cfg, testPattern(test, r.run), test, r.limits)
	}
}

// confirmed filters the events of an exploration in one process: a bug is
// confirmed by a fresh replay (e.Replayed then says so) or turned into a
// warning; the test event of a test with an unconfirmed bug is dropped, as
// the test is explored again (reexplore), which reports it.
func (r *runner) confirmed(i int, pkg *rewrite.Package, bin string, e *wire.Event, c *carried) bool {
	switch e.Event {
	case "bug":
		conf := r.confirm(i, pkg, bin, *e)
		if conf.replayed {
			e.Replayed = true
			return true
		}
		if r.ctx.Err() != nil {
			return true // interrupted: report what was found
		}
		r.rep.message("warning", pkg.ImportPath, e.Test, e.Trace, carriedWarning(*e, conf))
		c.add(e.Test)
		return false
	case "test":
		return c.bugs[e.Test] == 0
	}
	return true
}
