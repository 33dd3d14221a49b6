package runtime

import (
	"container/heap"
	"time"
)

// The virtual clock. As in testing/synctest, time stands still while any
// goroutine of the execution can run: only when every goroutine is blocked
// does the scheduler call advance, which jumps the clock to the earliest
// pending timer and fires it (timers due at the same instant fire one at a
// time, in an order the strategy chooses). So a test's
// generous timeout (select on time.After(time.Second)) never fires just
// because the schedule ran slowly: it fires only when nothing else can
// happen, which is when it would in a program that really waits for it.
// Sleeping an hour costs nothing. A timer due at or before the current
// instant when it is armed (d <= 0) fires at once.
//
// Which timers count. A Sleep, a func timer (AfterFunc, the deadline of a
// context) always counts. A channel timer (NewTimer, After, NewTicker,
// Tick) counts only while a goroutine is blocked receiving from its
// channel: as in Go 1.23, where such timers enter the runtime's heap only
// when a goroutine blocks on them, an unread ticker does not make time
// move, and when the clock jumps for another reason every channel timer due
// by then delivers (a ticker at most one tick: the buffer of one drops the
// others, as Go drops ticks for slow receivers).
//
// After the test function returns, the goroutines left run until nothing
// can move, and those left blocked are leaks. Time still moves then, but
// only up to leakHorizon past the instant the test returned, and tickers no
// longer count: a goroutine left ranging over a ticker, or sleeping in a
// loop, after its test is over never quiesces in real Go either; it is
// stopped there rather than run forever, and not reported as leaked, since
// a timer can still wake it (see leak_timers.go).

// leakHorizon is how much virtual time the goroutines left behind by a test
// get to finish after it returned; about what go.uber.org/goleak waits.
const leakHorizon = time.Second

// timerKind says what firing a timer does.
type timerKind uint8

const (
	// tkSleep readies the sleeping goroutine.
	tkSleep timerKind = iota
	// tkChan delivers the time on the timer's channel.
	tkChan
	// tkFunc starts f in a new goroutine of the execution.
	tkFunc
)

// vtimer is a timer on the virtual clock.
type vtimer struct {
	kind timerKind
	// when is the instant it fires, as virtual time elapsed since the
	// execution started; period is a ticker's interval (0 otherwise).
	when, period time.Duration
	seq          uint64 // arming order: timers due together fire in it
	idx          int    // position in the heap, -1 when not pending

	g     *goroutine     // tkSleep
	ch    chan time.Time // tkChan
	f     func()         // tkFunc
	pc    uintptr        // tkFunc: where it was made, the site of f's goroutine
	owner int            // tkFunc: id of the goroutine that made it
	// fired is set when a one-shot timer fires (a sleep may end; f has
	// started).
	fired bool
}

// timerHeap orders the pending timers by instant, then arming order.
type timerHeap []*vtimer

//go:norace
func (h timerHeap) Len() int { return len(h) }

//go:norace
func (h timerHeap) Less(i, j int) bool {
	return h[i].when < h[j].when || (h[i].when == h[j].when && h[i].seq < h[j].seq)
}

//go:norace
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx = i
	h[j].idx = j
}

//go:norace
func (h *timerHeap) Push(x any) {
	t := x.(*vtimer)
	t.idx = len(*h)
	*h = append(*h, t)
}

//go:norace
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.idx = -1
	return t
}

// clock is the execution's virtual clock and its timers. Every field is
// guarded by execution.mu.
type clock struct {
	// start is the real instant the execution started, so that virtual
	// instants look like ordinary times; now is the virtual time elapsed.
	start time.Time
	now   time.Duration
	seq   uint64
	heap  timerHeap
	// timers and tickers map the values handed to user code to their
	// model, so that Stop and Reset find it.
	timers  rmap[*time.Timer, *vtimer]
	tickers rmap[*time.Ticker, *vtimer]
	// returned is set, with returnedAt, when advance first runs after the
	// test function returned.
	returned   bool
	returnedAt time.Duration
	due        []*vtimer // scratch for advance
	// ctxs are the deadline contexts whose parent can be cancelled; see
	// settleCancelled.
	ctxs []*deadlineCtx
}

//go:norace
func (c *clock) init() {
	c.start = time.Now()
}

// pending reports whether a timer is armed. Lock held.
//
//go:norace
func (c *clock) pending() bool { return len(c.heap) > 0 }

// instant is the time.Time of virtual instant d.
//
//go:norace
func (c *clock) instant(d time.Duration) time.Time { return c.start.Add(d) }

// arm schedules t to fire d from now; a timer already due fires at once.
// Lock held; t must not be pending.
//
//go:norace
func (c *clock) arm(e *execution, t *vtimer, d time.Duration) {
	if d < 0 {
		d = 0
	}
	t.when = c.now + d
	if t.when < c.now { // overflow: never
		t.when = 1<<63 - 1
	}
	c.seq++
	t.seq = c.seq
	t.fired = false
	if d == 0 && t.kind != tkSleep {
		c.fire(e, t)
		return
	}
	heap.Push(&c.heap, t)
}

// disarm removes t from the pending timers; it reports whether t was
// pending. Lock held.
//
//go:norace
func (c *clock) disarm(t *vtimer) bool {
	if t.idx < 0 {
		return false
	}
	heap.Remove(&c.heap, t.idx)
	return true
}

// counts reports whether t may make the clock jump (see above). Lock held.
//
//go:norace
func (c *clock) counts(e *execution, t *vtimer) bool {
	if c.returned && t.when > c.returnedAt+leakHorizon {
		return false
	}
	if t.kind != tkChan {
		return true
	}
	if c.returned && t.period > 0 {
		return false
	}
	// Goroutines in uncontrolled code may be receiving from it.
	return e.ndetached > 0 || e.chanOf(chanKey((<-chan time.Time)(t.ch))).recvq.peek()
}

// advance jumps the clock to the earliest timer that counts and fires
// it; false if no timer counts. The scheduler calls it when no goroutine
// can run. When several timers that count are due at that instant, which
// fires first is a decision of the strategy (Go does not order them), and
// the others fire at the next call, at the same instant, once the
// goroutines the first one woke have run: so a context deadline and a tick
// due together may reach a select in either order. Timers that do not
// count and are due by then fire too (nobody is waiting on them, their
// order cannot matter). Lock held.
//
//go:norace
func (c *clock) advance(e *execution) bool {
	if len(c.ctxs) > 0 && c.settleCancelled() {
		return true
	}
	if len(c.heap) == 0 {
		return false
	}
	if e.mainDone && !c.returned {
		c.returned, c.returnedAt = true, c.now
	}
	var next *vtimer
	for _, t := range c.heap {
		if (next == nil || t.when < next.when) && c.counts(e, t) {
			next = t
		}
	}
	if next == nil {
		return false
	}
	if next.when > c.now {
		c.now = next.when
	}
	due := c.due[:0]
	for _, t := range c.heap {
		if t.when <= c.now && c.counts(e, t) {
			due = append(due, t)
		}
	}
	sortTimers(due)
	if len(due) > 1 {
		idx := make([]int, len(due))
		for i := range idx {
			idx[i] = i
		}
		next = due[e.chooseCase(e.main, idx)]
	} else {
		next = due[0]
	}
	for i := range due {
		due[i] = nil
	}
	c.due = due[:0]
	c.disarm(next)
	c.fire(e, next)
	// The due timers nobody waits on deliver now, in arming order.
	for {
		var t *vtimer
		for _, x := range c.heap {
			if x.when <= c.now && !c.counts(e, x) && (t == nil || x.seq < t.seq) {
				t = x
			}
		}
		if t == nil {
			break
		}
		c.disarm(t)
		c.fire(e, t)
	}
	return true
}

// sortTimers orders timers by instant, then arming order (insertion sort:
// few timers are ever due together).
//
//go:norace
func sortTimers(ts []*vtimer) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && (ts[j].when < ts[j-1].when || (ts[j].when == ts[j-1].when && ts[j].seq < ts[j-1].seq)); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// fire performs what t does when it expires; t is not pending. Lock held.
//
//go:norace
func (c *clock) fire(e *execution, t *vtimer) {
	switch t.kind {
	case tkSleep:
		t.fired = true
		e.ready(t.g)
	case tkChan:
		runtimeSend(e, t.ch, c.instant(t.when))
		if t.period > 0 {
			// Skip the ticks missed while nobody looked, as Go does.
			t.when += t.period * (1 + (c.now-t.when)/t.period)
			c.seq++
			t.seq = c.seq
			heap.Push(&c.heap, t)
		}
	case tkFunc:
		t.fired = true
		if e.aborting || e.over {
			return
		}
		g := e.newGoroutine(t.owner, t.pc)
		e.hbForkFrom(g, timerKey(t))
		// Not a go statement here: it would order f after whichever
		// goroutine moved the clock, for Go's race detector.
		tsanStartAfter(g, timerKey(t))
		goNeutral(func() { e.run(g, t.f) })
	}
}

// runtimeSend sends v on the owned channel c on behalf of the runtime,
// without a scheduling point and without blocking: to the first goroutine
// waiting to receive, or into the buffer; when neither is possible (a
// ticker's buffered tick has not been read) the value is dropped, which
// it reports by returning false. Lock held.
//
//go:norace
func runtimeSend[E any](e *execution, c chan E, v E) bool {
	cs := e.chanOf(chanKey((<-chan E)(c)))
	if w := cs.recvq.pop(); w != nil {
		*(*E)(w.elem) = v
		w.ok = true
		e.complete(w)
		return true
	}
	// Whichever goroutine moved the clock sends the tick: for Go's race
	// detector it must carry no goroutine's clock, as Go's timers do not.
	raceDisable()
	sent, _ := trySend((chan<- E)(c), v)
	raceEnable()
	if sent {
		e.pushed(cs, valueHash(&v))
	}
	return sent
}

// drain empties the buffer of a timer's channel, so that no stale value
// is received after Stop or Reset (Go 1.23 semantics); it reports whether
// a value was there. Lock held.
//
//go:norace
func drain(c chan time.Time) bool {
	_, _, got := tryRecv((<-chan time.Time)(c))
	return got
}
