package runtime

import (
	"context"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
	"weak"
)

// Contexts with a virtual deadline. context.WithDeadline would arm a real
// timer, so inside an execution WithDeadline builds the context from parts
// whose behaviour is Go's own:
//
//	parent <- deadlineCtx (ours, private) <- cancelCtx (context.WithCancelCause, returned)
//
// The returned context is an ordinary cancelCtx, so its children attach to
// it synchronously and its Done, Err, Value and cancellation are the
// standard library's. Its parent, deadlineCtx, reports the virtual
// deadline (Deadline is inherited) and is the only way the deadline
// reaches the cancelCtx with the error context.DeadlineExceeded: the
// context package lets a custom parent cancel a child with its own Err
// only through the AfterFunc method that deadlineCtx implements. When the
// virtual timer fires, a goroutine of the execution (the timer goroutine
// of real Go) cancels the context: ctx.Err() is DeadlineExceeded, for its
// children too, and context.Cause is the cause given to WithDeadlineCause.
//
// A cancellation of the parent reaches deadlineCtx through
// context.AfterFunc, which runs in a goroutine the runtime does not
// control: goroutines blocked on ctx.Done() see it through polling, as
// for any context cancelled by uncontrolled code.

// WithTimeout is context.WithTimeout on the virtual clock.
//
//go:norace
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return withDeadline(parent, clockNow().Add(d), nil, callerPC2())
}

// WithTimeoutCause is context.WithTimeoutCause on the virtual clock.
//
//go:norace
func WithTimeoutCause(parent context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	return withDeadline(parent, clockNow().Add(d), cause, callerPC2())
}

// WithDeadline is context.WithDeadline on the virtual clock.
//
//go:norace
func WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return withDeadline(parent, d, nil, callerPC2())
}

// WithDeadlineCause is context.WithDeadlineCause on the virtual clock.
//
//go:norace
func WithDeadlineCause(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
	return withDeadline(parent, d, cause, callerPC2())
}

// callerPC2 is the pc of the call to the hook that calls it.
//
//go:norace
func callerPC2() uintptr {
	var pcs [1]uintptr
	runtime.Callers(3, pcs[:])
	return pcs[0]
}

//go:norace
func withDeadline(parent context.Context, d time.Time, cause error, pc uintptr) (context.Context, context.CancelFunc) {
	e, me := enter()
	if e == nil {
		return context.WithDeadlineCause(parent, d, cause)
	}
	if parent == nil {
		panic("cannot create context from nil parent")
	}
	if cur, ok := parent.Deadline(); ok && cur.Before(d) {
		// The parent's deadline is earlier: it will cancel first.
		return WithCancel(parent)
	}
	dc := &deadlineCtx{parent: parent, deadline: d, cause: cause, e: e, done: make(chan struct{}), listed: -1}
	var w context.Context
	if parent.Done() != nil {
		if err := parent.Err(); err != nil {
			dc.finish(err, false)
		} else {
			w = watched(e, me, parent, pc)
			dc.stopParent = context.AfterFunc(w, func() { dc.finish(parent.Err(), false) })
		}
	}
	e.mu.Lock()
	dur := d.Sub(e.clock.instant(e.clock.now))
	e.mu.Unlock()
	if dur <= 0 {
		// Already expired: cancelled at once, as Go does.
		dc.finish(context.DeadlineExceeded, true)
	}
	ctx, cancel := context.WithCancelCause(dc)
	dc.key = contextKey(ctx)
	watching(w, ctx)
	h := &cancelHandle{f: func() { dc.cancel(ctx, cancel) }}
	pk := contextKey(parent)
	e.mu.Lock()
	if !e.over && dc.Err() == nil {
		dc.timer = &vtimer{kind: tkFunc, f: dc.expire, pc: pc, owner: me.id, idx: -1, deadline: true}
		e.clock.arm(e, dc.timer, dur, me)
		e.clock.armed(e)
		if dc.stopParent != nil {
			dc.listed = len(e.clock.ctxs)
			e.clock.ctxs = append(e.clock.ctxs, dc)
		}
	}
	if !e.over {
		e.models.registerContext(ctx, parent, pk, h, dc)
	}
	e.mu.Unlock()
	return ctx, h.cancel
}

// cancelHandle holds a context's cancel function for the user: the leak
// check learns from a weak pointer to it whether anyone can still cancel
// the context (leak.go).
type cancelHandle struct {
	f     func()
	cause func(error)
}

//go:norace
func (h *cancelHandle) cancel() { h.f() }

//go:norace
func (h *cancelHandle) cancelCause(err error) { h.cause(err) }

// ctxInfo is what the leak check knows of a context made by instrumented
// code: its parent, whether its cancel function is still reachable, and
// its deadline (dc), if it has one. The detector follows ctx and
// parentKey up to the cancel that closed a Done channel (detector.ctxClosed).
type ctxInfo struct {
	ctx       context.Context
	parent    context.Context
	parentKey unsafe.Pointer
	handle    weak.Pointer[cancelHandle]
	dc        *deadlineCtx
	// born: ctx was closed when it was made (its parent was), by the
	// goroutine that made it, which had seen the parent's close.
	born bool
}

// registerContext records ctx, made by instrumented code, by its Done
// channel; parentKey is contextKey(parent), taken before the lock (a
// parent may be the user's type). Lock held, the execution not over.
//
//go:norace
func (m *models) registerContext(ctx, parent context.Context, parentKey unsafe.Pointer, h *cancelHandle, dc *deadlineCtx) {
	d := ctx.Done()
	m.contexts.put(chanKey(d), &ctxInfo{ctx: ctx, parent: parent, parentKey: parentKey, handle: weak.Make(h), dc: dc})
}

// registerContextActive is registerContext for hooks that need no token
// (WithCancel passes through outside executions).
//
//go:norace
func registerContextActive(ctx, parent context.Context, h *cancelHandle) {
	e := active.Load()
	if e == nil {
		return
	}
	pk := contextKey(parent)
	born := ctx.Err() != nil
	e.mu.Lock()
	if !e.over {
		e.models.registerContext(ctx, parent, pk, h, nil)
	}
	if info := e.models.contexts.get(contextKey(ctx)); info != nil {
		info.born = born
	}
	e.mu.Unlock()
}

// cancelling is the detector's side of a cancel by instrumented code (a
// CancelFunc, a deadline's expiry) of ctx, whose Done channel is k: when
// ctx is still open, this cancel is the one that closes its Done, and
// me's events so far happen before every receive that sees it closed.
// Asked before the cancel, so that no receive can see the close first.
//
//go:norace
func cancelling(e *execution, me *goroutine, ctx context.Context, k unsafe.Pointer) {
	if e == nil || me == nil || k == nil || ctx.Err() != nil {
		return
	}
	e.mu.Lock()
	e.race.cancel(me, k)
	e.mu.Unlock()
}

// contextKey is the identity of a context's Done channel, nil for a
// context that can never be cancelled.
//
//go:norace
func contextKey(ctx context.Context) unsafe.Pointer {
	d := ctx.Done()
	if d == nil {
		return nil
	}
	return chanKey(d)
}

// deadlineCtx is the private parent of a context with a virtual deadline.
type deadlineCtx struct {
	parent   context.Context
	deadline time.Time
	cause    error
	e        *execution
	done     chan struct{}
	// key is the Done channel of the cancelCtx returned to the user.
	key   unsafe.Pointer
	timer *vtimer // guarded by e.mu
	// listed is dc's index in e.clock.ctxs, -1 when not listed; guarded
	// by e.mu.
	listed int

	mu         sync.Mutex
	err        error
	expired    bool
	settling   bool // err is set, the afters are being run
	stopParent func() bool
	// afters are the functions registered by AfterFunc, in order; nil
	// entries were stopped.
	afters []func()
}

//go:norace
func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.deadline, true }

//go:norace
func (c *deadlineCtx) Done() <-chan struct{} { return c.done }

//go:norace
func (c *deadlineCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Value answers context.Cause's lookup of the innermost cancelCtx with one
// that holds the cause of the expiry, when there is one; other keys go to
// the parent.
//
//go:norace
func (c *deadlineCtx) Value(key any) any {
	if k := cancelCtxKey(); k != nil && key == k {
		c.mu.Lock()
		expired := c.expired
		c.mu.Unlock()
		if expired && c.cause != nil {
			cc, cancel := context.WithCancelCause(context.Background())
			cancel(c.cause)
			return cc.Value(key)
		}
	}
	return c.parent.Value(key)
}

//go:norace
func (c *deadlineCtx) String() string {
	return "gosct.WithDeadline(" + c.deadline.String() + ")"
}

// AfterFunc is how the context package attaches the returned cancelCtx to
// this parent (its afterFuncer interface): f runs when the deadline
// expires or the parent is cancelled.
//
//go:norace
func (c *deadlineCtx) AfterFunc(f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		go f()
		return func() bool { return false }
	}
	i := len(c.afters)
	c.afters = append(c.afters, f)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if i < len(c.afters) && c.afters[i] != nil {
			c.afters[i] = nil
			return true
		}
		return false
	}
}

// expire runs when the virtual deadline is reached, in a goroutine of the
// execution. A cancellation of the parent that has not reached c yet (the
// news travels through a goroutine the runtime does not control) wins: it
// happened first.
//
//go:norace
func (c *deadlineCtx) expire() {
	if err := c.parent.Err(); err != nil {
		cancelBy(func() { c.finish(err, false) })
		return
	}
	if e, me := enter(); e != nil && c.Err() == nil {
		// The goroutine that runs the expiry closes the context's Done,
		// as the timer's goroutine does in Go.
		e.mu.Lock()
		e.race.cancel(me, c.key)
		e.mu.Unlock()
	}
	cancelBy(func() { c.finish(context.DeadlineExceeded, true) })
}

// finish makes c done with err and cancels what is attached to it.
//
//go:norace
func (c *deadlineCtx) finish(err error, expired bool) {
	if c.settle(err, expired) {
		c.disarm()
	}
}

// settle makes c done with err, unless it is already, and cancels what is
// attached to it; it reports whether it did. It takes no runtime lock.
//
//go:norace
func (c *deadlineCtx) settle(err error, expired bool) bool {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return false
	}
	c.err, c.expired = err, expired
	c.settling = true
	close(c.done)
	fs := c.afters
	c.afters = nil
	stop := c.stopParent
	c.stopParent = nil
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
	for _, f := range fs {
		if f != nil {
			f()
		}
	}
	c.mu.Lock()
	c.settling = false
	c.mu.Unlock()
	return true
}

// settleCancelled finishes, before the clock moves, the deadline contexts
// whose parent was cancelled but which have not heard of it yet (the news
// travels through a goroutine the runtime does not control): the clock
// must not fire a deadline that a cancellation already overtook. It
// reports whether it finished one. Lock held.
//
//go:norace
func (c *clock) settleCancelled() bool {
	any := false
	live := c.ctxs[:0]
	for _, dc := range c.ctxs {
		dc.mu.Lock()
		err, settling := dc.err, dc.settling
		dc.mu.Unlock()
		if err == nil {
			err = dc.parent.Err()
			if err == nil {
				live = append(live, dc)
				continue
			}
			dc.settle(err, false)
			any = true
		}
		if dc.timer != nil {
			c.disarm(dc.timer)
		}
		if settling {
			// Another goroutine is cancelling what hangs from it: let
			// it finish before anything else happens.
			live = append(live, dc)
			any = true
			runtime.Gosched()
		}
	}
	for i := len(live); i < len(c.ctxs); i++ {
		c.ctxs[i].listed = -1
		c.ctxs[i] = nil
	}
	c.ctxs = live
	for i, dc := range live {
		dc.listed = i
	}
	return any
}

// unlist removes dc from the deadline contexts the clock watches, in O(1):
// a context cancelled by its CancelFunc has nothing left to settle. Lock
// held.
//
//go:norace
func (c *clock) unlist(dc *deadlineCtx) {
	i := dc.listed
	if i < 0 || i >= len(c.ctxs) || c.ctxs[i] != dc {
		return
	}
	last := len(c.ctxs) - 1
	c.ctxs[i] = c.ctxs[last]
	c.ctxs[i].listed = i
	c.ctxs[last] = nil
	c.ctxs = c.ctxs[:last]
	dc.listed = -1
}

// cancel is the CancelFunc: a scheduling point (it closes the Done
// channel other goroutines may wait on), then Go's cancellation; the
// timer and the link to the parent are released, as Go's timerCtx does.
//
//go:norace
func (c *deadlineCtx) cancel(ctx context.Context, cancel context.CancelCauseFunc) {
	if e, me := enter(); e != nil {
		e.yield(me, opCancel)
		cancelling(e, me, ctx, c.key)
	}
	cancelBy(func() { cancel(nil) })
	c.mu.Lock()
	stop := c.stopParent
	c.stopParent = nil
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
	c.disarm()
}

// disarm removes the deadline's timer, and c from the contexts the clock
// watches, unless its execution is over.
//
//go:norace
func (c *deadlineCtx) disarm() {
	c.e.mu.Lock()
	if !c.e.over {
		if c.timer != nil {
			c.e.clock.disarm(c.timer)
		}
		c.e.clock.unlist(c)
	}
	c.e.mu.Unlock()
}

// cancelCtxKey returns the key context.Cause looks the innermost cancelCtx
// up with (the address of an unexported variable of package context),
// learnt once by asking Cause about a context that records it.
//
//go:norace
func cancelCtxKey() any {
	keyOnce.Do(func() {
		s := &keySpy{}
		context.Cause(s)
		ctxKey = s.key
	})
	return ctxKey
}

var (
	keyOnce sync.Once
	ctxKey  any
)

type keySpy struct {
	context.Context
	key any
}

//go:norace
func (s *keySpy) Err() error { return context.Canceled }

//go:norace
func (s *keySpy) Value(key any) any { s.key = key; return nil }

//go:norace
func (s *keySpy) Done() <-chan struct{} { return nil }

// WithCancel is context.WithCancel whose cancel function is a scheduling
// point: cancelling changes what every goroutine watching ctx sees, and the
// cancel itself runs in the context package, where the runtime cannot see
// it.
//
//go:norace
func WithCancel(parent context.Context) (context.Context, context.CancelFunc) {
	w := watchedActive(parent)
	ctx, cancel := context.WithCancel(w)
	k := contextKey(ctx)
	watching(w, ctx)
	h := &cancelHandle{f: func() {
		if e, me := enter(); e != nil {
			e.yield(me, opCancel)
			cancelling(e, me, ctx, k)
		}
		cancelBy(cancel)
	}}
	registerContextActive(ctx, parent, h)
	return ctx, h.cancel
}

// WithCancelCause is WithCancel for context.WithCancelCause.
//
//go:norace
func WithCancelCause(parent context.Context) (context.Context, context.CancelCauseFunc) {
	w := watchedActive(parent)
	ctx, cancel := context.WithCancelCause(w)
	k := contextKey(ctx)
	watching(w, ctx)
	h := &cancelHandle{cause: func(cause error) {
		if e, me := enter(); e != nil {
			e.yield(me, opCancel)
			cancelling(e, me, ctx, k)
		}
		cancelBy(func() { cancel(cause) })
	}}
	registerContextActive(ctx, parent, h)
	return ctx, h.cancelCause
}

// A parent of a context type of its own (a mock clock's context, a
// wrapper) that is neither a cancelCtx of package context nor has an
// AfterFunc method reaches its children through a goroutine that package
// context starts (propagateCancel) and the runtime does not control: it
// would run in real time, unseen by the scheduler, so a child could stay
// uncancelled long after the parent's Done channel was closed, even while
// every goroutine of the execution waits for the virtual clock (a test
// that sleeps to let the cancellation through). watched gives such a parent
// an AfterFunc method whose function runs in a goroutine of the execution
// waiting on the parent's Done channel, which is the goroutine of Go,
// scheduled.

// watchedCtx is a parent of its own type with a scheduled AfterFunc.
type watchedCtx struct {
	context.Context
	e  *execution
	me *goroutine
	pc uintptr // the call that made the child: the watcher's site
	// child is the context the parent's news cancels, the one returned to
	// the user: its goroutine's cancel is a release, as any cancel.
	child context.Context
}

// watching records child, made from w, in w when w is a watchedCtx.
//
//go:norace
func watching(w, child context.Context) {
	if wc, ok := w.(*watchedCtx); ok {
		wc.child = child
	}
}

// watched returns parent, or parent made a watchedCtx when package context
// would watch it with a goroutine of its own. The caller holds the token.
//
//go:norace
func watched(e *execution, me *goroutine, parent context.Context, pc uintptr) context.Context {
	done := parent.Done()
	if done == nil {
		return parent
	}
	if _, ok := parent.(interface{ AfterFunc(func()) func() bool }); ok {
		return parent
	}
	if p, ok := parent.Value(cancelCtxKey()).(context.Context); ok && p.Done() == done {
		return parent
	}
	return &watchedCtx{Context: parent, e: e, me: me, pc: pc}
}

// watchedActive is watched for hooks that pass through outside executions.
//
//go:norace
func watchedActive(parent context.Context) context.Context {
	e, me := enter()
	if e == nil || parent == nil {
		return parent
	}
	var pcs [1]uintptr
	runtime.Callers(3, pcs[:]) // the call of the hook that calls watchedActive
	return watched(e, me, parent, pcs[0])
}

// AfterFunc runs f in a new goroutine of the execution once the parent is
// done, unless stop comes first. The goroutine stays blocked on a parent
// that is never done, as Go's does while the child lives; it is not the
// test's, so it is never reported as leaked.
//
//go:norace
func (w *watchedCtx) AfterFunc(f func()) func() bool {
	var state atomic.Int32 // 0 armed, 1 stopped, 2 ran
	done := w.Context.Done()
	w.e.spawnWatcher(w.me, w.pc, func() {
		Recv(done)
		if state.CompareAndSwap(0, 2) {
			if e, me := enter(); e != nil {
				e.yield(me, opCancel)
				if w.child != nil {
					cancelling(e, me, w.child, contextKey(w.child))
				}
			}
			cancelBy(f)
		}
	})
	return func() bool { return state.CompareAndSwap(0, 1) }
}

//go:norace
func (w *watchedCtx) String() string {
	if s, ok := w.Context.(interface{ String() string }); ok {
		return s.String()
	}
	return reflect.TypeOf(w.Context).String()
}
