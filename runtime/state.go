package runtime

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/strategies"
)

// Saved searches (wire.Config.State). A test function's exploration
// resumes the search saved in its state file, and saves it again between
// executions: at most every saveInterval while it runs, so that a process
// killed (by a timeout, a crash, the command after an interrupt) loses at most that much, and
// when the exploration ends, whatever ended it. The state is written only
// between executions, where a strategy's state is complete.

// saveInterval is the period of the saves while a search runs.
const saveInterval = time.Second

// loadState resumes the search saved for this test, if any. Lock not held.
//
//go:norace
func (x *explorer) loadState() error {
	x.statePath = wire.StatePath(x.c.State, x.c.Package, x.t.Name())
	sv, ok := x.strat.(strategies.Saver)
	if !ok {
		return fmt.Errorf("strategy %s cannot save its search (--state, --per-process)", x.c.Strategy)
	}
	st, err := wire.ReadState(x.statePath)
	if err != nil || st == nil {
		return err
	}
	if d := st.Mismatch(x.c); d != "" {
		return fmt.Errorf("the search saved in %s was made with other options (%s): use the same options, or another state directory", x.statePath, d)
	}
	if err := sv.Load(bytes.NewReader(st.Search)); err != nil {
		return fmt.Errorf("cannot resume the search saved in %s: %v", x.statePath, err)
	}
	if sk, ok := x.strat.(strategies.Skipper); ok && st.Running {
		// The schedule saved as running ended its process: do not
		// take it again.
		sk.SkipExecution()
	}
	x.schedules, x.resumed, x.bugsBefore = st.Schedules, st.Schedules, st.Bugs
	if g := st.Gaps; g != nil {
		x.gaps = proofGaps{uncontrolled: g.Uncontrolled, fair: g.Fair, early: g.Early, values: g.Values, drawn: control(g.Drawn)}
	}
	for _, k := range st.Keys {
		x.seen[k] = true
		x.seenBefore[k] = true
	}
	return nil
}

// saveState writes the search to its state file. Call it between
// executions; running says the execution NewExecution prepared is about to
// run (per-process mode saves then too).
//
//go:norace
func (x *explorer) saveState(running bool) {
	if x.statePath == "" {
		return
	}
	x.lastSave = time.Now()
	var buf bytes.Buffer
	if err := x.strat.(strategies.Saver).Save(&buf); err != nil {
		x.stateError(err)
		return
	}
	st := &wire.State{
		Package: x.c.Package, Test: x.t.Name(), Strategy: x.c.Strategy, Seed: x.c.Seed,
		Bound: x.c.Bound, Depth: x.c.Depth, States: x.c.States, Races: x.c.Races, Shard: x.c.Shard, Shards: x.c.Shards,
		TimerEarly: x.c.TimerEarly, LeakGrace: x.c.LeakGrace,
		Schedules: x.schedules, Bugs: x.bugsBefore + x.bugs, Exhausted: x.exhausted, Running: running,
		Search: bytes.TrimSpace(buf.Bytes()),
	}
	if x.ranged {
		st.Total = x.c.Total
	}
	if g := x.gaps; g != (proofGaps{}) {
		st.Gaps = &wire.Gaps{Uncontrolled: g.uncontrolled, Fair: g.fair, Early: g.early, Values: g.values, Drawn: int(g.drawn)}
	}
	for k := range x.seen {
		st.Keys = append(st.Keys, k)
	}
	sort.Strings(st.Keys)
	if err := wire.WriteState(x.statePath, st); err != nil {
		x.stateError(err)
	}
}

// stateError reports a saved state that could not be written; the
// exploration itself goes on.
//
//go:norace
func (x *explorer) stateError(err error) {
	if !x.saveFailed {
		x.saveFailed = true
		x.emit(&wire.Event{Event: "error", Message: "saving the search: " + err.Error()})
	}
}

// saveDue reports whether the periodic save is due.
//
//go:norace
func (x *explorer) saveDue() bool {
	return x.statePath != "" && time.Since(x.lastSave) >= saveInterval
}

var (
	interruptOnce sync.Once
	// interrupted is set by the first interrupt (^C, or the command
	// cancelling the run): explorations stop at the end of the execution
	// in progress, save their search and report.
	interrupted atomic.Bool
	// notifies: the runtime called signal.Notify, which starts os/signal's
	// goroutine (hidden from the program's dump: stacks.go).
	notifies atomic.Bool
)

// watchInterrupt turns the interrupt into a request to stop, for a search
// that must be saved. Without it the process would die at once, losing
// what the search did since its last save. Later interrupts are ignored
// too: a ^C at the terminal reaches the test binary twice, from the
// terminal and from the command passing it on, and the command kills a
// binary that has not stopped after a few seconds anyway.
//
//go:norace
func watchInterrupt() {
	interruptOnce.Do(func() {
		ch := make(chan os.Signal, 1)
		notifies.Store(true)
		signal.Notify(ch, os.Interrupt)
		go func() {
			for range ch {
				interrupted.Store(true)
			}
		}()
	})
}
