package runtime

import (
	"context"
	"runtime"
	"sync/atomic"
)

// context.AfterFunc(ctx, f) runs f in a goroutine of its own once ctx is
// cancelled, and package context starts that goroutine itself (go a.f()),
// inside whichever call cancels ctx. Unseen, it ran in real time beside
// the goroutine holding the token, and the runtime, not knowing it was
// coming, could call the execution deadlocked while the goroutine that
// would unblock it was starting. ContextAfterFunc keeps Go's own
// bookkeeping (context decides, under its lock, whether the cancel or the
// stop function came first) and moves only the start: a cancel that a
// goroutine of the execution runs (a CancelFunc, a deadline's expiry, a
// parent's news) is bracketed by runCancel, which afterwards starts, as a
// goroutine of the execution created by the canceller at the AfterFunc
// call's site, every registered f whose context is now done. The
// goroutine package context starts for f only defers to it; when a
// cancel comes from code the runtime does not see, that goroutine runs f
// itself, which joins the execution at its first hook, as any goroutine
// uncontrolled code starts.

// afterFunc is one function ContextAfterFunc registered.
type afterFunc struct {
	ctx   context.Context
	f     func()
	pc    uintptr // the AfterFunc call, the goroutine's creation site
	state atomic.Int32
}

// The states of an afterFunc.
const (
	afArmed int32 = iota
	afStopped
	afStarted
)

// ContextAfterFunc is context.AfterFunc, whose f starts as a goroutine of
// the execution when a goroutine of the execution cancels ctx.
//
//go:norace
func ContextAfterFunc(ctx context.Context, f func()) (stop func() bool) {
	e, me := enter()
	if e == nil || me == nil {
		return context.AfterFunc(ctx, f)
	}
	var pcs [1]uintptr
	runtime.Callers(2, pcs[:])
	a := &afterFunc{ctx: ctx, f: f, pc: pcs[0]}
	e.mu.Lock()
	e.models.afterFuncs = append(e.models.afterFuncs, a)
	e.mu.Unlock()
	var goStop func() bool
	// ctx may be done already: context then starts f at once.
	runCancel(e, me, func() { goStop = context.AfterFunc(ctx, func() { a.fromContext(&e.models.cancels) }) })
	return func() bool {
		stopped := goStop()
		if a.state.CompareAndSwap(afArmed, afStopped) {
			return stopped
		}
		return false // started, by a cancellation the runtime saw
	}
}

// fromContext runs in the goroutine package context started for a. A
// goroutine of the execution that is cancelling starts a itself, when
// its cancel returns: this one waits for that (cancels counts them), and
// runs f only if no such cancel started it.
//
//go:norace
func (a *afterFunc) fromContext(cancels *rtCounter) {
	for cancels.Load() > 0 {
		runtime.Gosched()
	}
	if a.state.CompareAndSwap(afArmed, afStarted) {
		callFunc(a.f)
	}
}

// runCancel runs cancel, a cancellation by me, a goroutine of the
// execution, then starts the AfterFunc functions whose contexts are now
// done. Like the hooks, it orchestrates: the models' AfterFunc functions,
// the core's goroutines.
//
//go:norace
func runCancel(e *execution, me *goroutine, cancel func()) {
	e.models.cancels.Add(1)
	defer e.models.cancels.Add(-1)
	cancel()
	e.mu.Lock()
	// Ready the goroutines blocked on what the cancel closed (the Done
	// channels of the contexts it cancelled, channels of package
	// context): me closed them, at this step, in every run, so unlike
	// what pollEager finds at the next decision they are not noted as fed
	// by uncontrolled code, and a report does not call the plainest
	// `case <-ctx.Done()` a source gosct does not control.
	if e.eagerPollers != 0 {
		e.wakeEager(false)
	}
	pending := e.models.afterFuncs
	e.models.afterFuncs = nil
	e.mu.Unlock()
	var armed []*afterFunc
	for _, a := range pending {
		if a.state.Load() != afArmed {
			continue
		}
		if a.ctx.Err() == nil {
			armed = append(armed, a)
		} else if a.state.CompareAndSwap(afArmed, afStarted) {
			e.spawn(me, a.pc, a.f)
		}
	}
	e.mu.Lock()
	e.models.afterFuncs = append(armed, e.models.afterFuncs...)
	e.mu.Unlock()
}

// cancelBy runs cancel as runCancel does when the caller is a goroutine of
// an execution, else as it is.
//
//go:norace
func cancelBy(cancel func()) {
	if e, me := enter(); e != nil && me != nil {
		runCancel(e, me, cancel)
		return
	}
	cancel()
}
