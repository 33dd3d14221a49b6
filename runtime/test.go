package runtime

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

var (
	configOnce sync.Once
	config     *wire.Config
	configErr  error
)

//go:norace
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
//
//go:norace
func Test(t *testing.T, body func(*testing.T)) {
	noteTestBody(body)
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
//
//go:norace
func Run(t *testing.T, name string, f func(*testing.T)) bool {
	e, me := enter()
	if e == nil {
		return t.Run(name, f)
	}
	e.leave(me, opUncontrolled)
	e.mu.Lock()
	if me.state == gDetached && !e.over {
		me.inRun = true
		e.ndetached--
		// Until the subtest's goroutine arrives, the execution waits for
		// it rather than call a deadlock (idle.go).
		me.runPending = true
		e.runPending++
	}
	e.mu.Unlock()
	parent := t
	ok := t.Run(name, func(t *testing.T) {
		e2, child := enter() // joins as an adopted goroutine
		if e2 == e && child != nil {
			child.parent = me.id
			child.runParent = me
			child.runT = parent
			child.subtest = userTestName(t.Name())
			defer e.adoptedExit(child)
			defer parallelDone(child) // after its own parallel subtests
		}
		e.mu.Lock()
		e.endRunPending(me)
		e.mu.Unlock()
		ended := false
		defer func() { e.releaseParallel(t, ended || t.Failed() || t.Skipped()) }()
		f(t)
		ended = true
	})
	e.mu.Lock()
	e.endRunPending(me)
	e.endRunWait(me)
	e.mu.Unlock()
	e.rejoin(me)
	e.mu.Lock()
	e.hbJoinAll(me)
	e.mu.Unlock()
	return ok
}

// leave lets me run uncontrolled code that may block: the token goes to
// another runnable goroutine, or is left free for the first goroutine that
// reaches a hook (one that me's uncontrolled code starts, typically).
// Lock not held.
//
//go:norace
func (e *execution) leave(me *goroutine, op opKind) {
	me.op = op
	e.mu.Lock()
	e.setState(me, gDetached)
	e.passOn(me)
	e.mu.Unlock()
}

// passOn passes the token on without waiting: to a runnable goroutine, or
// nobody. Lock held.
//
//go:norace
func (e *execution) passOn(me *goroutine) {
	if next := e.choose(me, false); next != nil {
		e.give(next)
	} else {
		e.cur.Store(nil)
	}
}

// adoptedExit ends an adopted goroutine whose end we can see (a subtest
// started through Run).
//
//go:norace
func (e *execution) adoptedExit(g *goroutine) {
	e.mu.Lock()
	defer e.mu.Unlock()
	// The parent returns from t.Run in uncontrolled code now: count it as
	// detached again before anyone decides that nothing can move.
	if g.runParent != nil {
		e.endRunWait(g.runParent)
	}
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
//
//go:norace
func (e *execution) rejoin(me *goroutine) {
	if e2, _ := e.foreign(me.goid); e2 == nil && !me.adopted && me != e.main {
		goexit()
	}
}

// endRunWait counts g, back from waiting for a subtest, as detached again.
// Lock held.
//
//go:norace
func (e *execution) endRunWait(g *goroutine) {
	if g.inRun {
		g.inRun = false
		e.ndetached++
	}
}

// endRunPending notes that the subtest g started has arrived (or will
// not). Lock held.
//
//go:norace
func (e *execution) endRunPending(g *goroutine) {
	if g.runPending {
		g.runPending = false
		e.runPending--
	}
}

// userTestName is a test's name as the user wrote it: without the
// schedule's subtest gosct runs each execution in (TestX/schedule_3/a is
// TestX/a).
//
//go:norace
func userTestName(name string) string {
	parts := strings.Split(name, "/")
	if len(parts) > 1 && strings.HasPrefix(parts[1], "schedule_") {
		parts = append(parts[:1], parts[2:]...)
	}
	return strings.Join(parts, "/")
}
