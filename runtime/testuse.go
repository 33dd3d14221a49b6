package runtime

import (
	"fmt"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// T precedes a call through t that writes to the test's output or changes
// its result (t.Log, t.Error, t.Fatal, t.Skip and their variants):
// gosct.T(t).Log(...). It returns t.
//
// Once the test function has returned (or called t.FailNow), Go's testing
// panics when a goroutine calls these ("Fail in goroutine after TestX has
// completed"; for Log, as soon as no test runs any more). Inside gosct the
// leftover goroutines still run within the schedule's subtest, so that
// panic would never show: the runtime reports the call as a failure of the
// test instead, with the goroutine's stack.
//
//go:norace
func T(t *testing.T) *testing.T {
	e, me := enter()
	if e == nil || me == nil {
		return t
	}
	e.mu.Lock()
	e.oracle.noteReport(t)
	e.ev.addExtra(strategies.OpRead, unsafe.Pointer(&testObj))
	if e.mainDone && me != e.main && !e.aborting {
		e.abortLocked(me, e.oracle.lateUse(me, debug.Stack(), e.t.Name()))
	}
	e.mu.Unlock()
	return t
}

// lateUse is the bug of g, which reported through t, the test testName's,
// after the test function had returned.
//
//go:norace
func (o *oracle) lateUse(g *goroutine, stack []byte, testName string) *bug {
	b := &bug{kind: kindFailure, gs: []gsnap{{id: g.id, created: g.creationSite(), state: "running", stack: userStack(string(stack))}}}
	b.message = fmt.Sprintf("goroutine %s reported through t (t.Log, t.Error, t.Fatal...) after the test function had returned: Go's testing panics (\"... in goroutine after %s has completed\"); wait for the goroutine before the test returns", g.name(), testName)
	b.key = kindFailure + ":late:" + firstFrame(b.gs[0].stack)
	return b
}
