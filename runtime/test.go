package runtime

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
)

var (
	configOnce sync.Once
	config     *wire.Config
	configErr  error
)

func loadConfig() *wire.Config {
	configOnce.Do(func() {
		config, configErr = wire.Load()
		if configErr != nil {
			fmt.Fprintf(os.Stderr, "gosct: bad %s: %v\n", wire.EnvConfig, configErr)
			os.Exit(2)
		}
		// Processes the tests start (a test binary re-running itself to
		// check a crash, say) must run as they would under go test.
		os.Unsetenv(wire.EnvConfig)
	})
	return config
}

// Test runs a test function. The rewriter wraps the body of every
// func TestXxx(t *testing.T) in it. Without GOSCT_CONFIG it just runs body;
// with it, it runs body under many schedules, each in a subtest named
// schedule_N, and reports every bug it finds.
func Test(t *testing.T, body func(*testing.T)) {
	c := loadConfig()
	if c == nil || active.Load() != nil {
		body(t)
		return
	}
	t.Helper()
	x, err := newExplorer(t, c)
	if err != nil {
		t.Fatalf("gosct: %v", err)
	}
	x.explore(body)
}

// Run replaces t.Run in instrumented code. Inside an execution, the calling
// goroutine waits in uncontrolled code (testing runs f in a goroutine of
// its own) and the subtest's goroutine joins the execution.
func Run(t *testing.T, name string, f func(*testing.T)) bool {
	e, me := enter()
	if e == nil {
		return t.Run(name, f)
	}
	e.leave(me, opUncontrolled)
	ok := t.Run(name, func(t *testing.T) {
		e2, child := enter() // joins as an adopted goroutine
		if e2 == e && child != nil {
			child.parent = me.id
			defer e.adoptedExit(child)
		}
		f(t)
	})
	e.rejoin(me)
	e.mu.Lock()
	e.hbJoinAll(me)
	e.mu.Unlock()
	return ok
}

// Parallel replaces t.Parallel. A controlled execution runs one goroutine
// at a time anyway, and a parallel subtest would wait for its parent in
// uncontrolled code, so inside an execution it does nothing.
func Parallel(t *testing.T) {
	if e, _ := enter(); e == nil {
		t.Parallel()
	}
}

// leave lets me run uncontrolled code that may block: the token goes to
// another runnable goroutine, or is left free for the first goroutine that
// reaches a hook (one that me's uncontrolled code starts, typically).
// Lock not held.
func (e *execution) leave(me *goroutine, op opKind) {
	me.op = op
	e.mu.Lock()
	e.setState(me, gDetached)
	e.passOn(me)
	e.mu.Unlock()
}

// passOn passes the token on without waiting: to a runnable goroutine, or
// nobody. Lock held.
func (e *execution) passOn(me *goroutine) {
	if next := e.choose(me, false); next != nil {
		e.give(next)
	} else {
		e.cur.Store(nil)
	}
}

// adoptedExit ends an adopted goroutine whose end we can see (a subtest
// started through Run).
func (e *execution) adoptedExit(g *goroutine) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.over {
		return
	}
	holder := e.cur.Load() == g
	e.setState(g, gDone)
	if holder && !e.aborting {
		// Its parent waits for it in uncontrolled code (testing's
		// t.Run): waiting here for the parent would wait for ever.
		e.passOn(g)
	}
}

// rejoin takes me back under control after leave; it returns when me holds
// the token again.
func (e *execution) rejoin(me *goroutine) {
	if e2, _ := e.foreign(me.goid); e2 == nil && !me.adopted && me != e.main {
		goexit()
	}
}

// explorer runs one test function under many schedules.
type explorer struct {
	t     *testing.T
	c     *wire.Config
	strat strategies.Strategy
	set   settings
	start time.Time
	// deadline stops exploring before go test's -timeout would kill the
	// process.
	deadline  time.Time
	schedules int
	bugs      int
	seen      map[string]bool
	exhausted bool
	// replayer and trace0 are set in replay mode.
	replayer *replay.Replayer
	trace0   *replay.Trace
}

func newExplorer(t *testing.T, c *wire.Config) (*explorer, error) {
	x := &explorer{t: t, c: c, set: defaultSettings, start: time.Now(), seen: map[string]bool{}}
	if c.MaxSteps > 0 {
		x.set.maxSteps = c.MaxSteps
	}
	x.set.races, x.set.accessPoints = parseRaces(c.Races)
	if c.Mode == "replay" {
		tr, err := replay.Read(c.Trace)
		if err != nil {
			return nil, err
		}
		x.trace0 = tr
		x.replayer = replay.NewReplayer(tr)
		x.replayer.Continue = c.Continue
		x.strat = x.replayer
		x.set.detailed = true
	} else {
		name := c.Strategy
		if name == "" {
			name = "portfolio"
		}
		s, err := strategies.New(name, strategies.Options{Seed: c.Seed, Bound: c.Bound, Depth: c.Depth})
		if err != nil {
			return nil, err
		}
		x.strat = s
	}
	if c.BudgetNS > 0 {
		x.deadline = x.start.Add(time.Duration(c.BudgetNS))
	}
	if d, ok := t.Deadline(); ok {
		// Leave a tenth of the time, at least a few seconds, to report.
		margin := time.Until(d) / 10
		if margin < 3*time.Second {
			margin = 3 * time.Second
		}
		if dd := d.Add(-margin); x.deadline.IsZero() || dd.Before(x.deadline) {
			x.deadline = dd
		}
	}
	return x, nil
}

func (x *explorer) limit() int {
	if x.c.Schedules > 0 {
		return x.c.Schedules
	}
	return 1000
}

// explore runs the schedules. It stops at the first bug unless KeepGoing.
func (x *explorer) explore(body func(*testing.T)) {
	startWatchdog()
	lastProgress := time.Now()
	for x.schedules < x.limit() {
		if now := time.Now(); now.Sub(lastProgress) > 500*time.Millisecond {
			lastProgress = now
			x.emit(&wire.Event{Event: "progress", Schedules: x.schedules, Bugs: x.bugs, ElapsedS: now.Sub(x.start).Seconds()})
		}
		if !x.deadline.IsZero() && time.Now().After(x.deadline) {
			break
		}
		if !x.strat.NewExecution() {
			x.exhausted = true
			break
		}
		x.schedules++
		e, skipped := x.runOnce("schedule_"+itoa(x.schedules), x.strat, x.set, body)
		if e.tooLong {
			x.emit(&wire.Event{Event: "warning", Schedule: x.schedules, Message: fmt.Sprintf(
				"%s: an execution exceeded %d scheduling steps while still changing shared state: too long to explore; stopped (raise --max-steps)", x.t.Name(), x.set.maxSteps)})
			break
		}
		if skipped {
			break
		}
		if x.replayer != nil {
			if d := x.replayer.Finish(); d != nil && e.bug == nil {
				x.emit(&wire.Event{Event: "diverged", Schedule: x.schedules, Trace: x.c.Trace, Message: d.Error()})
			}
		}
		if e.bug != nil {
			x.found(e, body)
			if !x.c.KeepGoing {
				break
			}
		}
	}
	x.finish()
}

// runOnce runs one execution in a subtest; skipped reports t.Skip.
func (x *explorer) runOnce(name string, s strategies.Strategy, set settings, body func(*testing.T)) (e *execution, skipped bool) {
	e = newExecution(s, set, nil)
	ok := x.t.Run(name, func(t *testing.T) {
		e.t = t
		defer func() { skipped = t.Skipped() }()
		e.runTest(t, body)
	})
	if e.bug == nil && !ok {
		e.bug = failureBug()
	}
	return e, skipped
}

func (x *explorer) finish() {
	st := ""
	if s, ok := x.strat.(strategies.Status); ok {
		st = s.Status()
		x.exhausted = x.exhausted || s.Exhausted()
	}
	x.emit(&wire.Event{
		Event:     "test",
		Schedules: x.schedules,
		Bugs:      x.bugs,
		ElapsedS:  time.Since(x.start).Seconds(),
		Exhausted: x.exhausted,
		Status:    st,
	})
}

func (x *explorer) emit(ev *wire.Event) {
	ev.Package = x.c.Package
	ev.Test = x.t.Name()
	if ev.Strategy == "" {
		ev.Strategy = x.c.Strategy
	}
	if x.c.Results == "" {
		return
	}
	if err := wire.Append(x.c.Results, ev); err != nil {
		fmt.Fprintf(os.Stderr, "gosct: writing results: %v\n", err)
	}
}
