package runtime

import (
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// The leak rule (docs/limitations.md, "Leaks"). When a test function has
// returned, its cleanups have run, and its goroutines have gone on for the
// grace period (time.go) until nothing can move, a goroutine the test
// started (not one adopted from uncontrolled code) is leaked when
//
//  1. it is blocked for ever: blocked on channels, locks, wait groups,
//     conditions or a select, with no pending timer among what it waits
//     for, and no goroutine that can still run is known to reach what it
//     waits for. This is the definition of Go 1.26's leak detector
//     (GOEXPERIMENT=goroutineleakprofile): "blocked on concurrency
//     primitives that no runnable goroutine can reach", with reachability
//     known from the model rather than from the heap: a goroutine that can
//     still run reaches the channels it waits on (in a select beside a
//     timer, say) and the locks it holds; a goroutine blocked on one of
//     those is woken by it, transitively. Goroutines waiting for a timer,
//     in uncontrolled code, or adopted can still run;
//  2. or only timers can wake it: every case it waits on is a timer (a
//     sleep, a timer or ticker channel, a context's deadline), a nil
//     channel, or the Done channel of a context nobody can cancel any more
//     (its cancel function is unreachable and no parent can cancel it), and
//     no goroutine that can still run waits on its other channels. At the
//     end of the grace period such a goroutine either loops on its timers
//     for ever (a ticker; a timer that woke it leakWakes times since the
//     test returned, after which it no longer moves the clock) or waits for
//     a timer due after the grace period (a sleep of an hour). Go's
//     detector does not report these (their timers keep them reachable);
//     go.uber.org/goleak does, and so does gosct.
//
// A daemon waiting for a timer and for something that may still stop it (a
// janitor selecting on a ticker and a stop channel, even one only a
// finalizer closes) is not reported: gosct cannot tell whether it will be
// stopped, as Go's detector cannot.

// gwait is what a blocked goroutine waits for, for the leak rule.
type gwait struct {
	chans []unsafe.Pointer // channels, in a select too (nil ones excluded)
	// timer: a pending timer among its waits (a sleep, an armed timer or
	// ticker channel, a context with a pending deadline).
	timer bool
	// others: the waits that are not timers; dead: how many of them can
	// never fire (contexts nobody can cancel).
	others, dead int
	holders      []*goroutine // holders of the locks it waits for
}

// leaked returns the goroutines of the test, among all, that are leaked:
// see above. It reads what they wait for in the pending timers, the
// channels, the locks and Onces, and the contexts the program made. Lock
// held.
//
//go:norace
func (o *oracle) leaked(all []*goroutine, timers timerHeap, chans *rmap[unsafe.Pointer, *chanState], locks *models, contexts *rmap[unsafe.Pointer, *ctxInfo]) []*goroutine {
	var cand []*goroutine
	for _, g := range all {
		if g.state == gBlocked && !g.adopted && !g.watcher {
			cand = append(cand, g)
		}
	}
	if len(cand) == 0 {
		return nil
	}
	tc := timerChans(timers)
	w := waits(tc, timers, chans, locks)
	ctxs := newCtxLiveness(contexts)
	waiters := make(map[unsafe.Pointer][]*goroutine)
	for g, gw := range w {
		for _, k := range gw.chans {
			waiters[k] = append(waiters[k], g)
		}
	}
	// Classify the non-timer waits; the deadline of a context is a timer.
	for _, gw := range w {
		for _, k := range gw.chans {
			if tc[k] != nil {
				continue
			}
			switch ctxs.state(k) {
			case ctxDeadline:
				gw.timer = true
			case ctxDead:
				gw.others++
				gw.dead++
			default:
				gw.others++
			}
		}
	}
	// Goroutines that can still run: not blocked, or waiting for a timer,
	// or adopted; then whoever they reach, transitively.
	alive := make(map[*goroutine]bool)
	for _, g := range all {
		switch {
		case g.state == gRunnable || g.state == gDetached:
			alive[g] = true
		case g.state == gBlocked && (g.adopted || w[g] != nil && w[g].timer):
			alive[g] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, g := range cand {
			if alive[g] {
				continue
			}
			gw := w[g]
			if gw == nil {
				continue
			}
			reached := false
			for _, h := range gw.holders {
				reached = reached || alive[h]
			}
			for _, k := range gw.chans {
				for _, h := range waiters[k] {
					reached = reached || (h != g && alive[h])
				}
			}
			if reached {
				alive[g] = true
				changed = true
			}
		}
	}
	var out []*goroutine
	for _, g := range cand {
		gw := w[g]
		switch {
		case !alive[g]:
			out = append(out, g)
		case gw != nil && gw.timer && gw.others == gw.dead && !reachedByOthers(g, gw, tc, waiters, alive):
			out = append(out, g)
		}
	}
	return out
}

// reachedByOthers reports whether a goroutine other than g that can still
// run waits on one of g's non-timer channels (and so might close it).
//
//go:norace
func reachedByOthers(g *goroutine, gw *gwait, tc map[unsafe.Pointer]*vtimer, waiters map[unsafe.Pointer][]*goroutine, alive map[*goroutine]bool) bool {
	for _, k := range gw.chans {
		if tc[k] != nil {
			continue
		}
		for _, h := range waiters[k] {
			if h != g && alive[h] {
				return true
			}
		}
	}
	return false
}

// timerChans maps the channels of the pending channel timers to them.
// Lock held.
//
//go:norace
func timerChans(timers timerHeap) map[unsafe.Pointer]*vtimer {
	m := make(map[unsafe.Pointer]*vtimer)
	for _, t := range timers {
		if t.kind == tkChan {
			m[chanKey((<-chan time.Time)(t.ch))] = t
		}
	}
	return m
}

// waits describes what every blocked goroutine waits for, on the channels
// chans, the pending timers and the locks; tc are the pending timers'
// channels. Lock held.
//
//go:norace
func waits(tc map[unsafe.Pointer]*vtimer, timers timerHeap, chans *rmap[unsafe.Pointer, *chanState], locks *models) map[*goroutine]*gwait {
	w := make(map[*goroutine]*gwait)
	get := func(g *goroutine) *gwait {
		if w[g] == nil {
			w[g] = &gwait{}
		}
		return w[g]
	}
	chans.each(func(k unsafe.Pointer, cs *chanState) {
		for _, q := range []waitq{cs.recvq, cs.sendq} {
			for _, x := range q {
				if !x.live() || x.g.state != gBlocked {
					continue
				}
				gw := get(x.g)
				gw.chans = append(gw.chans, k)
				if tc[k] != nil {
					gw.timer = true
				}
			}
		}
	})
	for _, t := range timers {
		if t.kind == tkSleep && t.g.state == gBlocked {
			get(t.g).timer = true
		}
	}
	holds := func(waiters []*goroutine, holders ...*goroutine) {
		for _, g := range waiters {
			if g.state == gBlocked {
				gw := get(g)
				for _, h := range holders {
					if h != nil {
						gw.holders = append(gw.holders, h)
					}
				}
			}
		}
	}
	locks.mutexes.each(func(_ *sync.Mutex, st *mutexState) {
		holds(st.waiters, st.holder)
	})
	locks.rws.each(func(_ *sync.RWMutex, st *rwState) {
		holds(st.w.waiters, st.w.holder)
		if st.writer == rwPending && st.wg != nil {
			holds([]*goroutine{st.wg}, st.readers...)
		}
		for _, b := range st.blocked {
			if !b.done {
				holds([]*goroutine{b.g}, st.wg)
			}
		}
	})
	locks.onces.each(func(_ *sync.Once, st *onceState) {
		holds(st.waiters, st.runner)
	})
	return w
}

// Liveness of the contexts instrumented code made, for the leak rule.
type ctxState uint8

const (
	ctxUnknown  ctxState = iota // not a context we know, or someone may cancel it
	ctxDeadline                 // a pending deadline will cancel it
	ctxDead                     // nothing can ever cancel it
)

// ctxLiveness answers, for a Done channel, whether its context can still
// be cancelled. It learns whether cancel functions are still reachable
// from one garbage collection, run only when a question needs it.
type ctxLiveness struct {
	contexts *rmap[unsafe.Pointer, *ctxInfo] // the contexts the program made
	gced     bool
	memo     map[unsafe.Pointer]ctxState
}

//go:norace
func newCtxLiveness(contexts *rmap[unsafe.Pointer, *ctxInfo]) *ctxLiveness {
	return &ctxLiveness{contexts: contexts, memo: make(map[unsafe.Pointer]ctxState)}
}

//go:norace
func (l *ctxLiveness) state(k unsafe.Pointer) ctxState {
	if k == nil {
		return ctxDead
	}
	if s, ok := l.memo[k]; ok {
		return s
	}
	l.memo[k] = ctxUnknown // a cycle cannot happen, but never loop
	s := l.compute(k)
	l.memo[k] = s
	return s
}

//go:norace
func (l *ctxLiveness) compute(k unsafe.Pointer) ctxState {
	info := l.contexts.get(k)
	if info == nil {
		return ctxUnknown
	}
	if info.dc != nil && info.dc.timer != nil && info.dc.timer.idx >= 0 {
		return ctxDeadline
	}
	parent := ctxUnknown
	switch {
	case info.parent.Done() == nil:
		parent = ctxDead // Background, TODO, WithoutCancel
	case info.parent.Err() != nil:
		return ctxUnknown // cancelled: the child is on its way
	default:
		parent = l.state(contextKey(info.parent))
	}
	if parent != ctxDead {
		return parent
	}
	if !l.gced {
		// Ask the collector which cancel functions are still
		// reachable (a weak pointer to an unreachable one is nil after
		// a full cycle). The runtime's lock stays held: the collector
		// does not need it.
		l.gced = true
		runtime.GC()
	}
	if info.handle.Value() != nil {
		return ctxUnknown
	}
	return ctxDead
}
