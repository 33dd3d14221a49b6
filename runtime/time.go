package runtime

import (
	"container/heap"
	"time"

	"github.com/gosct/gosct/replay"
)

// The virtual clock. Time in an execution is virtual: it starts at the
// real instant the execution started and moves only as the model says,
// never backward, and never while nothing happens. It moves in four ways
// (docs/runtime.md, "Time"):
//
//   - with work: every scheduling step, every read of the clock (Now) and
//     the arming of a timer cost what Go takes for them at best, and a
//     timer wakes what it wakes no earlier than Go's fastest wake-up after
//     its deadline (costs.go), so a sleep of d ends later than d after it
//     began, by at least what Go takes, and two reads are never equal;
//   - by a decision: at every goroutine decision the strategy may choose
//     strategies.Clock instead of a goroutine when a timer is due within
//     settings.timerEarly of the work-clock (floor below): the clock moves
//     to the deadline of the earliest such timer and it fires. This is how
//     a 1 ms ticker ticks in the middle of another goroutine's loop, and how
//     timers due at the same instant interleave with the goroutines they
//     wake. A timer that has fallen due by work alone (floor) fires at the
//     next decision without one;
//   - when nothing else can happen: when every goroutine is blocked, the
//     clock jumps to the next timer, as in testing/synctest; when the
//     goroutines only spin (a fair schedule has changed no shared state for
//     settings.fairAfter steps), likewise;
//   - by real time spent in uncontrolled code (charge), recorded in the
//     trail so that a replay moves the same way.
//
// floor is the time the execution has certainly taken: work, jumps and
// charges, without the early firings. now - floor never exceeds timerEarly:
// timers fire at most timerEarly ahead of the work that precedes them, so a
// generous timeout (select on time.After(time.Second)) never fires before
// work that completes, whatever the schedule, unless the work itself takes
// that long (a million steps at the default cost are 10 ms).
//
// Timer firing order is Go's: deadline order, and timers due at the same
// instant in an order the strategy chooses (a Case decision whose Current is
// strategies.Clock).
//
// Which timers count. A Sleep, a func timer (AfterFunc, the deadline of a
// context) always counts. A channel timer (NewTimer, After, NewTicker,
// Tick) counts for a jump only while a goroutine is blocked receiving from
// its channel, as in Go 1.23, where such timers enter the runtime's heap
// only when a goroutine blocks on them: an unread ticker does not make time
// jump. It may fire early (a decision) while its value would be seen by a
// later poll (its buffer is empty). When the clock passes it for another
// reason, every channel timer due by then delivers (a ticker at most one
// tick: the buffer of one drops the others, as Go drops ticks for slow
// receivers).
//
// After the test function returns (and its cleanups have run), the
// goroutines left go on, with timers firing, for settings.leakGrace of
// virtual time; tickers after their first tick since the return
// (lateTicks), and the timers of a goroutine already woken
// leakWakes times since the return, no longer make the clock jump (they
// still fire when it passes them), and a timer armed by a loop that
// timers alone keep going (looping) does not fire at all: its goroutine
// waits on it at the end, however its iterations moved the clock. Then
// leaked goroutines are reported (leak.go).

// leakWakes is how many times a goroutine may be woken by a timer after
// its test returned (or a timer fire after it) before its timers stop
// driving the clock: by then it is a loop (a janitor, a retry loop), and
// would go on for ever. (A finite retry loop of more iterations is left
// sleeping at the end: leak.go.)
const leakWakes = 100

// lateTicks is how many ticks a ticker may make the clock jump for after
// its test returned: the goroutine waiting on it gets its next tick, to
// see what the end of the test changed (tidwall/buntdb's background loop
// returns at the first tick after its database is closed). A janitor that
// goes on waiting after it is left there, and leaked (leak.go).
const lateTicks = 1

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

	// lat is the wake-up latency when includes: the timer is due at
	// when-lat, and wakes what it wakes at when (costs.go).
	lat time.Duration

	g     *goroutine     // tkSleep
	ch    chan time.Time // tkChan
	f     func()         // tkFunc
	pc    uintptr        // tkFunc: where it was made, the site of f's goroutine
	owner int            // tkFunc: id of the goroutine that made it
	// deadline marks a context's deadline (tkFunc); site is where a
	// channel timer was made (detailed runs), for reports (timing.go).
	deadline bool
	site     string
	// fired is set when a one-shot timer fires (a sleep may end; f has
	// started).
	fired bool
	// lateFires counts its firings after the test returned (a
	// self-resetting AfterFunc, a ticker, a timer Reset in a loop).
	lateFires int
	// by is the goroutine that armed it last (nil: the runtime).
	by *goroutine
}

// never is the instant of a timer that does not fire: armed too far
// ahead, or by a loop after its test returned (looping).
const never = time.Duration(1<<63 - 1)

// timerHeap orders the pending timers by instant, then arming order.
type timerHeap []*vtimer

//go:norace
func (h timerHeap) Len() int { return len(h) }

//go:norace
func (h timerHeap) Less(i, j int) bool { return before(h[i], h[j]) }

//go:norace
func before(a, b *vtimer) bool {
	return a.when < b.when || (a.when == b.when && a.seq < b.seq)
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
	// instants look like ordinary times; now is the virtual time elapsed,
	// floor the part of it due to work, jumps and charges (see above).
	start      time.Time
	now, floor time.Duration
	// ps is the fraction of a nanosecond of work not yet on the clocks,
	// in picoseconds (costs.go).
	ps   int64
	seq  uint64
	heap timerHeap
	// timers and tickers map the values handed to user code to their
	// model, so that Stop and Reset find it.
	timers  rmap[*time.Timer, *vtimer]
	tickers rmap[*time.Ticker, *vtimer]
	// returned is set, with returnedAt, when the test function has
	// returned and its cleanups have run (mainDone).
	returned   bool
	returnedAt time.Duration
	due        []*vtimer // scratch
	// ctxs are the deadline contexts whose parent can be cancelled; see
	// settleCancelled.
	ctxs []*deadlineCtx
	// offered is the step since which the Clock choice has been offered
	// at every decision without being taken (0: not offered), for the
	// fairness rule: a clock never chosen is starved like a goroutine.
	offered int
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

// read returns the virtual now and moves the clock by one step's cost, so
// that two reads are never equal. Lock held.
//
//go:norace
func (c *clock) read(e *execution) time.Time {
	t := c.instant(c.now)
	if e.set.uniformCost {
		c.now += e.set.stepCost
		c.floor += e.set.stepCost
	} else {
		c.spend(costNow)
	}
	return t
}

// arm schedules t to fire d from now; a timer already due fires at once.
// by is the goroutine that arms it. Lock held; t must not be pending.
//
//go:norace
func (c *clock) arm(e *execution, t *vtimer, d time.Duration, by *goroutine) {
	t.by = by
	if d < 0 {
		d = 0
	}
	t.lat = 0
	if d > 0 || t.kind == tkSleep {
		t.lat = latency(t, e.set.uniformCost)
	}
	t.when = c.now + d + t.lat
	if t.when < c.now || c.looping(t) { // overflow, or a loop: never
		t.when = never
	}
	c.seq++
	t.seq = c.seq
	t.fired = false
	if d == 0 && t.kind != tkSleep && t.when != never {
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

// moveTo moves the clock forward to d (never back); jump also moves floor
// there: the time really passed, nothing could run before it.
//
//go:norace
func (c *clock) moveTo(d time.Duration, jump bool) {
	if d > c.now {
		c.now = d
	}
	if jump && c.now > c.floor {
		c.floor = c.now
	}
}

// work fires the timers that have fallen due by work alone, in deadline
// order (under settings.uniformCost it first charges one step: the step
// a decision chose is charged otherwise, costs.go). The scheduler calls it
// at every goroutine decision. Lock held.
//
//go:norace
func (c *clock) work(e *execution) {
	if e.set.uniformCost {
		c.now += e.set.stepCost
		c.floor += e.set.stepCost
	}
	for len(c.heap) > 0 && c.heap[0].when <= c.floor && !e.aborting {
		c.fire(e, heap.Pop(&c.heap).(*vtimer))
	}
}

// charge moves the clock by d of real time spent in uncontrolled code.
// Lock held.
//
//go:norace
func (c *clock) charge(d time.Duration) {
	if d <= 0 {
		return
	}
	c.now += d
	c.floor += d
}

// observable reports whether firing t now could make a difference: a
// sleeper or func timer, or a channel timer whose value a goroutine waits
// for or a later poll could see (its buffer is empty). Lock held.
//
//go:norace
func (c *clock) observable(e *execution, t *vtimer) bool {
	if t.kind != tkChan {
		return true
	}
	if len(t.ch) == 0 || e.ndetached > 0 {
		return true
	}
	cs := e.models.chans.get(chanKey((<-chan time.Time)(t.ch)))
	return cs != nil && cs.recvq.peek()
}

// early returns the earliest timer that may fire now at the strategy's
// choice: observable and due within settings.timerEarly of floor (its
// deadline, without the wake-up latency); nil if none. It visits only the
// part of the heap within the window. Lock held.
//
//go:norace
func (c *clock) early(e *execution) *vtimer {
	if e.set.timerEarly <= 0 || len(c.heap) == 0 {
		return nil
	}
	return c.earliest(e, 0, c.floor+e.set.timerEarly, nil)
}

// earliest returns the earliest observable timer at or below heap index i
// due by lim, or best if none is earlier. Lock held.
//
//go:norace
func (c *clock) earliest(e *execution, i int, lim time.Duration, best *vtimer) *vtimer {
	if i >= len(c.heap) {
		return best
	}
	t := c.heap[i]
	if t.when > lim+maxWake || (best != nil && !before(t, best)) {
		return best // the heap below i is later still
	}
	if t.when-t.lat <= lim && c.observable(e, t) {
		return t // below i is later
	}
	best = c.earliest(e, 2*i+1, lim, best)
	return c.earliest(e, 2*i+2, lim, best)
}

// fireEarly fires, at the strategy's choice of Clock, the timer early
// returned (t): the clock moves to its deadline. When several observable
// timers are due at that instant, which fires is a decision (the others
// are then overdue and fire at the next decision). Lock held.
//
//go:norace
func (c *clock) fireEarly(e *execution, t *vtimer) {
	due := c.due[:0]
	for _, x := range c.heap {
		if x.when == t.when && c.observable(e, x) {
			due = append(due, x)
		}
	}
	sortTimers(due)
	if len(due) > 1 {
		t = due[e.chooseTimer(len(due))]
	}
	for i := range due {
		due[i] = nil
	}
	c.due = due[:0]
	if op := e.record.noteEarly(t, c.now, e.runnable, c.timerWhat(e, t), e.set.detailed); op != "" {
		e.stepLog.add(replay.Step{G: -1, Op: op, Early: true}, len(e.trail), e.gs)
	}
	c.moveTo(t.when, false)
	c.disarm(t)
	c.passed(e, t.when-1)
	c.fire(e, t)
}

// passed fires, in deadline order, the pending timers due by d: the clock
// has moved past them for another timer's sake. Lock held.
//
//go:norace
func (c *clock) passed(e *execution, d time.Duration) {
	for len(c.heap) > 0 && c.heap[0].when <= d && !e.aborting {
		c.fire(e, heap.Pop(&c.heap).(*vtimer))
	}
}

// counts reports whether t may make the clock jump when nothing else can
// happen (see above). Lock held.
//
//go:norace
func (c *clock) counts(e *execution, t *vtimer) bool {
	if c.returned {
		if t.when > c.returnedAt+e.set.leakGrace || t.period > 0 && t.lateFires >= lateTicks {
			return false
		}
		switch t.kind {
		case tkSleep:
			if t.g.timerWakes >= leakWakes {
				return false
			}
		case tkFunc:
			if t.lateFires >= leakWakes {
				return false
			}
		}
	}
	if t.kind != tkChan {
		return true
	}
	// Goroutines in uncontrolled code may be receiving from it; a tick
	// into a full buffer is dropped, and jumping to it would change
	// nothing (the clock would go on jumping, tick after dropped tick,
	// while they are away).
	if e.ndetached > 0 && len(t.ch) == 0 {
		return true
	}
	cs := e.models.chans.get(chanKey((<-chan time.Time)(t.ch)))
	if cs == nil {
		return false
	}
	for _, w := range cs.recvq {
		if w.live() && (!c.returned || w.g.timerWakes < leakWakes) {
			return true
		}
	}
	return false
}

// next returns the earliest pending timer that counts, or nil. Lock held.
//
//go:norace
func (c *clock) next(e *execution) *vtimer {
	if len(c.heap) == 0 {
		return nil
	}
	if t := c.heap[0]; c.counts(e, t) {
		return t
	}
	var next *vtimer
	for _, t := range c.heap {
		if (next == nil || before(t, next)) && c.counts(e, t) {
			next = t
		}
	}
	return next
}

// advance jumps the clock to the earliest timer that counts and fires
// it; false if no timer counts. The scheduler calls it when no goroutine
// can run. When several timers that count are due at that instant, which
// fires first is a decision of the strategy (Go does not order them); the
// others are then overdue, and fire at the next decision, after the
// strategy has had the chance to fire them first or run the goroutine the
// first one woke. Timers that do not count and are due by then fire too
// (nobody is waiting on them, their order cannot matter). Lock held.
//
//go:norace
func (c *clock) advance(e *execution) bool {
	if len(c.ctxs) > 0 && c.settleCancelled() {
		return true
	}
	if len(c.heap) == 0 {
		return false
	}
	next := c.next(e)
	if next == nil {
		return false
	}
	c.moveTo(next.when, true)
	due := c.due[:0]
	for _, t := range c.heap {
		if t.when <= c.now && c.counts(e, t) {
			due = append(due, t)
		}
	}
	sortTimers(due)
	if len(due) > 1 && due[1].when == due[0].when {
		n := 1
		for n < len(due) && due[n].when == due[0].when {
			n++
		}
		next = due[e.chooseTimer(n)]
	} else {
		next = due[0]
	}
	for i := range due {
		due[i] = nil
	}
	c.due = due[:0]
	c.disarm(next)
	// The timers before it go first: a timer that counts is never
	// overtaken by a later one.
	c.passed(e, next.when-1)
	c.fire(e, next)
	return true
}

// spin fires the earliest observable timer, however far: the goroutines
// that can run are only spinning (a fair schedule has changed no shared
// state for long), which is, for time, as if they were all blocked. False
// if there is none. Lock held.
//
//go:norace
func (c *clock) spin(e *execution) bool {
	var t *vtimer
	for _, x := range c.heap {
		if (t == nil || before(x, t)) && c.observable(e, x) &&
			!(c.returned && x.when > c.returnedAt+e.set.leakGrace) {
			t = x
		}
	}
	if t == nil {
		return false
	}
	c.moveTo(t.when, true)
	c.disarm(t)
	c.passed(e, t.when-1)
	c.fire(e, t)
	return true
}

// sortTimers orders timers by instant, then arming order (insertion sort:
// few timers are ever due together).
//
//go:norace
func sortTimers(ts []*vtimer) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && before(ts[j], ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// looping reports whether t, armed or re-armed after the test returned,
// belongs to a loop that timers alone keep going: it fired leakWakes
// times since, or the goroutine that arms it, or that sleeps on it, was
// woken as often (or found a value its own timer had sent). Such a timer does not fire (it is armed at never): the
// loop would go on for ever, its timers falling due with the work of its
// iterations (or another loop's) as well as by jumps of the clock, and
// running it through the grace period would take every step the
// execution may take. Left waiting on it, the goroutine is leaked by the
// leak rule's second case (leak.go). Lock held.
//
//go:norace
func (c *clock) looping(t *vtimer) bool {
	if !c.returned {
		return false
	}
	return t.lateFires >= leakWakes || t.by != nil && t.by.timerWakes >= leakWakes ||
		t.kind == tkSleep && t.g.timerWakes >= leakWakes
}

// fire performs what t does when it expires; t is not pending. Lock held.
//
//go:norace
func (c *clock) fire(e *execution, t *vtimer) {
	if c.returned {
		t.lateFires++ // looping
	}
	switch t.kind {
	case tkSleep:
		t.fired = true
		if c.returned {
			t.g.timerWakes++
		}
		e.ready(t.g)
	case tkChan:
		if c.returned {
			// The goroutine it wakes, or, when nobody waits, the one that
			// armed it and will find the value when it looks.
			var w *waiter
			if cs := e.models.chans.get(chanKey((<-chan time.Time)(t.ch))); cs != nil {
				w = cs.recvq.first()
			}
			switch {
			case w != nil:
				w.g.timerWakes++
			case t.by != nil:
				t.by.timerWakes++
			}
		}
		runtimeSend(e, t.ch, c.instant(t.when-t.lat))
		if t.period > 0 {
			// Skip the ticks missed while nobody looked, as Go does.
			t.when += t.period * (1 + (c.now-t.when)/t.period)
			if c.looping(t) {
				t.when = never
			}
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
		if e.set.detailed {
			e.stepLog.spawned(nil, g, g.creationSite(), "", len(e.trail), e.gs)
		}
		e.race.forkFrom(g, timerKey(t))
		// Not a go statement here: it would order f after whichever
		// goroutine moved the clock, for Go's race detector.
		tsanStartAfter(g, timerKey(t))
		goNeutral(func() { e.run(g, t.f) })
	}
}

// describe names t for the Ops of a Clock choice.
//
//go:norace
func (t *vtimer) describe() string {
	switch t.kind {
	case tkSleep:
		return "timer sleep G" + itoa(t.g.id)
	case tkFunc:
		return "timer func"
	}
	if t.period > 0 {
		return "timer ticker"
	}
	return "timer chan"
}

// runtimeSend sends v on the owned channel c on behalf of the runtime,
// without a scheduling point and without blocking: to the first goroutine
// waiting to receive, or into the buffer; when neither is possible (a
// ticker's buffered tick has not been read) the value is dropped, which
// it reports by returning false. Lock held.
//
//go:norace
func runtimeSend[E any](e *execution, c chan E, v E) bool {
	cs := e.models.chanOf(chanKey((<-chan E)(c)))
	if w := cs.recvq.pop(); w != nil {
		*(*E)(w.elem) = v
		w.ok = true
		w.complete(e)
		return true
	}
	// Whichever goroutine moved the clock sends the tick: for Go's race
	// detector it must carry no goroutine's clock, as Go's timers do not.
	raceDisable()
	sent, _ := trySend((chan<- E)(c), v)
	raceEnable()
	if sent {
		e.ev.pushed(cs, valueHash(&v))
	}
	return sent
}

// drain empties the buffer of a timer's channel, so that no stale value
// is received after Stop or Reset (Go 1.23 semantics); it reports whether
// a value was there. Lock held.
//
// asyncTimerChans reports whether this process's timer channels are Go
// 1.22's: buffered, a value sent at expiry stays there through Stop and
// Reset, and Stop returns false once it is sent (GODEBUG
// asynctimerchan=1, the default of modules whose go line is 1.22 or
// older). Otherwise they are Go 1.23's: Stop and Reset drop a value not
// yet received, and the channel looks empty to len. The process's own
// timers say which, GODEBUG included; asked at init, so that no goroutine
// synchronizes with another to learn it.
var asyncTimerChans = timerChansAsync()

//go:norace
func timerChansAsync() bool {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	return cap(t.C) == 1
}

//go:norace
func drain(c chan time.Time) bool {
	_, _, got := tryRecv((<-chan time.Time)(c))
	return got
}
