package strategies

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// DPOR ("dpor") is stateless dynamic partial-order reduction: the
// source-set DPOR of Abdulla, Aronis, Jonsson and Sagonas ("Optimal
// dynamic partial order reduction", POPL 2014; "Source sets", JACM 2017,
// Algorithm 1), with sleep sets, over the events the runtime describes
// (EventUser, Event). Where DFS runs every interleaving, DPOR runs one per
// Mazurkiewicz trace: two schedules that only swap steps that commute
// (steps on different objects, reads of one variable) are one trace, and
// exploring one of them is enough for every outcome the other can have.
//
// The search is stateless like dfs: the runtime re-executes the test for
// every schedule, and the strategy keeps one level per branching point of
// the current schedule. A level holds the goroutines the search must still
// try there (its backtrack set) and those it has tried (its done set,
// whose members sleep in the subtrees of the later ones). When an
// execution ends, every race in it (two conflicting steps of different
// goroutines, adjacent in the happens-before order) is reversed: at the
// point before the first step, an initial of the steps that do not happen
// after it, followed by the second step's goroutine, joins the backtrack
// set unless an initial is already there or asleep. Each level's sleep set
// (the goroutines done at this and earlier levels whose next step commutes
// with every step taken since) is not chosen: schedules starting with a
// sleeping goroutine are equivalent to ones explored already. An execution
// in which every enabled goroutine sleeps is sleep-set blocked: it is
// redundant, and the runtime still runs it to its end (with choices
// outside the search) since a stateless runtime cannot stop an execution;
// Status counts them.
//
// Select cases, and points of any kind but Goroutine, are branches DPOR
// does not reduce: every choice is explored.
//
// The clock (Clock, a timer firing) is a goroutine of its own: its steps
// are the firings, chosen at a point or not (every goroutine blocked; a
// timer offered and never fired counts as a firing at the end), and each
// conflicts with every step, since the runtime cannot say which reads of
// the clock or which timer a firing touches. Its races put Clock in the
// backtrack sets where it was offered (docs/strategies.md, "Timers").
//
// With a preemption bound (Options.Bound > 0 or < 0 for bound 0), DPOR
// explores only schedules with at most that many preemptions, and adds, as
// bounded partial-order reduction does (Coons, Musuvathi, McKinley, OOPSLA
// 2013), a second backtrack point for each race: where the goroutine of its
// first step was last switched to. Sleep sets are off under a bound (the
// schedule equivalent to a sleeping one may exceed it).
type DPOR struct {
	name   string
	bound  int // preemption bound; -1: none
	levels []dlevel
	pos    int // index in levels of the next branching point
	// items are subtrees left to explore after levels (a part of a split
	// search): each is the levels of a schedule prefix.
	items [][]dlevel

	tr        trace
	an        analysis
	sleep     []sleeper // asleep before the next step
	sleepAcc  []Access
	blockedAt int  // first step not part of the search (sleep-set blocked), -1
	running   bool // an execution began whose end was not analysed
	clockDue  bool // the clock was offered since its last step in the trace
	cost      int  // preemptions of the execution so far
	scratch   []int
	inits     []int

	// State matching (dpor_states.go).
	states   bool
	visited  map[uint64]*visit
	names    map[uintptr]*objNames // this execution's object names
	gsteps   []int                 // steps of each goroutine in this execution
	named    []int                 // each goroutine's step last named (mention)
	lst      []lvState             // parallel to levels
	changed  int                   // level this execution changed (-1: none)
	matchSum []sumEntry            // summary of the state this execution matched
	matchAt  int                   // step at which it matched, -1
	matched  int                   // executions that matched a state
	stopped  int                   // levels completed by the closed-subset rule
	cutOff   []int                 // goroutines whose pending steps a bug cut off (cutWhereEnabled)

	begun, done  bool
	runs         int
	blocked      int // sleep-set blocked executions
	diverged     int
	unseenRuns   int
	lost         int  // executions whose end was never analysed (their process died)
	uncontrolled int  // executions in which uncontrolled code took part
	earlyTimers  int  // executions in which a timer could have fired early (End.EarlyTimers)
	valueRuns    int  // executions that read a value no decision chose (End.Values)
	clipped      bool // bounded: a backtrack point was left out for the bound
	maxDepth     int
}

// A dlevel is a branching point of the current schedule.
type dlevel struct {
	Kind   Kind `json:"k"`
	N      int  `json:"n"` // choices (Case); goroutines DPOR may choose (Goroutine)
	Chosen int  `json:"c"` // goroutine id (Goroutine) or index in Choices
	Cur    int  `json:"cur"`
	// Free: switching away from Cur here costs no preemption (it is
	// blocked, exited or yielding); Cost: preemptions before the point.
	Free bool `json:"free,omitempty"`
	Cost int  `json:"cost,omitempty"`
	// Enabled are the goroutines that may be chosen; Backtrack those the
	// search will have tried (Chosen and Done included); Done those tried
	// before Chosen; Sleep those asleep at the point in the last
	// execution; Wild whether Chosen's step did more than its event said
	// (then, asleep, it conflicts with everything).
	Enabled   []int   `json:"e,omitempty"`
	Backtrack []int   `json:"b,omitempty"`
	Done      []tried `json:"d,omitempty"`
	Sleep     []int   `json:"s,omitempty"`
	Wild      bool    `json:"w,omitempty"`
	// Until, if set, ends the choices tried at a non-goroutine level
	// before N (a part of a split search owns only some of them).
	Until int `json:"u,omitempty"`
}

func (lv *dlevel) until() int {
	if lv.Until > 0 {
		return lv.Until
	}
	return lv.N
}

// tried is a goroutine explored at a level before the current choice.
type tried struct {
	G    int  `json:"g"`
	Wild bool `json:"w,omitempty"`
}

// A sleeper is a goroutine asleep before the next step, with the event of
// its pending step.
type sleeper struct {
	g      int
	a0, a1 int // its accesses, in DPOR.sleepAcc
	wild   bool
}

// NewDPOR returns source-set DPOR with sleep sets; o.Bound, if set, bounds
// the preemptions (see DPOR).
func NewDPOR(o Options) *DPOR {
	b := -1
	switch {
	case o.Bound > 0:
		b = o.Bound
	case o.Bound < 0:
		b = 0
	}
	d := &DPOR{name: "dpor", bound: b, blockedAt: -1, changed: -1, matchAt: -1}
	if o.States {
		d.states = true
		d.visited = map[uint64]*visit{}
		d.names = map[uintptr]*objNames{}
	}
	return d
}

func init() {
	register(Info{Name: "dpor", Summary: "dynamic partial-order reduction: one schedule per trace (--bound, --states)", Systematic: true, Reads: OptBound | OptStates, Splits: true, Resumes: true, New: func(o Options) Strategy { return NewDPOR(o) }})
}

// Stateless is true: the search re-executes prefixes of its schedules.
func (d *DPOR) Stateless() bool { return true }

// Wants asks for events at every goroutine point, and state signatures
// when matching states.
func (d *DPOR) Wants() Wants {
	if d.states {
		return WantEvents | WantStates
	}
	return WantEvents
}

// NewExecution analyses the execution that ended, then backtracks to the
// deepest level with a choice left.
func (d *DPOR) NewExecution() bool {
	if d.done {
		return false
	}
	if !d.begun {
		d.begun = true
		d.start()
		return true
	}
	if d.running {
		d.finish(End{})
	}
	for i := len(d.levels) - 1; i >= 0; i-- {
		lv := &d.levels[i]
		if lv.Kind != Goroutine {
			if lv.Chosen+1 < lv.until() {
				lv.Chosen++
				d.backtrackTo(i)
				return true
			}
			continue
		}
		if q, ok := d.pickAt(i); ok {
			lv.Done = append(lv.Done, tried{lv.Chosen, lv.Wild})
			lv.Chosen, lv.Wild = q, false
			d.backtrackTo(i)
			return true
		}
	}
	if d.states {
		d.remember(0)
	}
	d.lst = d.lst[:0]
	if len(d.items) > 0 {
		d.levels, d.items = d.items[0], d.items[1:]
		d.changed = -1
		d.start()
		return true
	}
	d.levels = d.levels[:0]
	d.done = true
	return false
}

// backtrackTo starts the next execution from level i, whose choice
// changed: the levels below it are complete.
func (d *DPOR) backtrackTo(i int) {
	if d.states {
		d.remember(i + 1)
		if len(d.lst) > i+1 {
			d.lst = d.lst[:i+1]
		}
	}
	d.levels = d.levels[:i+1]
	d.changed = i
	d.start()
}

// pickAt is pick for level i, unless stateful DPOR's closed-subset rule says
// the goroutines tried there are enough (--states, closedAt).
func (d *DPOR) pickAt(i int) (int, bool) {
	q, ok := d.pick(&d.levels[i])
	if ok && d.states && d.closedAt(i) {
		d.stopped++
		return noChoice, false
	}
	return q, ok
}

// pick returns the goroutine to try next at lv: in its backtrack set, not
// tried, not asleep, within the bound; in Maple's order from lv.Cur.
func (d *DPOR) pick(lv *dlevel) (int, bool) {
	best, bestRank := noChoice, 0
	for _, q := range lv.Backtrack {
		if q == lv.Chosen || lv.tried(q) || slices.Contains(lv.Sleep, q) || !d.within(lv, q) {
			continue
		}
		if r := mapleRank(lv.Cur, q); best == noChoice || r < bestRank {
			best, bestRank = q, r
		}
	}
	return best, best != noChoice
}

func (lv *dlevel) tried(q int) bool {
	for _, t := range lv.Done {
		if t.G == q {
			return true
		}
	}
	return false
}

// within reports whether choosing q at lv keeps the schedule within the
// bound.
func (d *DPOR) within(lv *dlevel, q int) bool {
	return d.bound < 0 || lv.Cost+lv.costOf(q) <= d.bound
}

// costOf is the preemptions choosing q at lv costs.
func (lv *dlevel) costOf(q int) int {
	if lv.Free || q == lv.Cur {
		return 0
	}
	return 1
}

// noChoice is neither a goroutine id nor Clock: ids are not negative, and
// Clock is, so no test of a choice may take "< 0" for "none".
const noChoice = -1

// mapleRank orders goroutine ids as mapleOrder does from cur: cur first,
// then ascending from cur, wrapping around; the clock last, so that a new
// point never fires a timer early when a goroutine can run (the first
// schedule is the one where timers fire only when every goroutine is
// blocked), and a timer fires early only where a race asks for it.
func mapleRank(cur, q int) int {
	switch {
	case q == Clock:
		return math.MaxInt
	case q == cur:
		return -1 << 30
	case q > cur:
		return q - cur
	}
	return 1<<30 + q
}

func (d *DPOR) start() {
	d.pos, d.cost, d.blockedAt = 0, 0, -1
	d.tr.reset()
	d.sleep, d.sleepAcc = d.sleep[:0], d.sleepAcc[:0]
	d.running, d.clockDue = true, false
	d.runs++
	if d.states {
		clear(d.names)
		d.gsteps, d.named = d.gsteps[:0], d.named[:0]
		d.matchSum, d.matchAt = nil, -1
	}
}

// Next replays the levels of the schedule, then takes new points in
// Maple's order among the goroutines not asleep.
func (d *DPOR) Next(p *Point) int {
	if !d.begun {
		d.begun = true
		d.start()
	}
	if p.Kind != Goroutine {
		return d.nextBranch(p)
	}
	yielding := noChoice
	if p.Yield {
		yielding = p.Current
	}
	d.complete(&p.Last, yielding)
	for _, g := range p.Choices {
		d.tr.see(g)
	}
	d.clockDue = d.clockDue || p.HasClock()
	// The goroutines DPOR may choose: all but a yielding one, if other
	// goroutines are enabled (the forced switch of the systematic
	// strategies; the clock is not one, as in mapleOrder), and but those
	// that would only queue on a held mutex (Event.Blocks), unless no
	// other goroutine can run (the clock alone does not count: firing a
	// timer early is never forced).
	gs := len(p.Choices)
	if p.HasClock() {
		gs--
	}
	yielder := -1
	if p.Yield && gs > 1 && p.Index(p.Current) >= 0 {
		yielder = p.Current
	}
	en := d.scratch[:0]
	runs := false
	for i, g := range p.Choices {
		if g != yielder && (i >= len(p.Events) || !p.Events[i].Blocks) {
			en = append(en, g)
			runs = runs || g != Clock
		}
	}
	if !runs {
		en = en[:0]
		for _, g := range p.Choices {
			if g != yielder {
				en = append(en, g)
			}
		}
	}
	d.scratch = en
	d.dropAbsentSleepers(p)
	if d.states {
		d.mention(p)
	}
	choice, level := d.choose(p, en, yielder)
	idx := p.Index(choice)
	d.record(p, idx, level)
	if yielder >= 0 {
		d.tr.yieldFrom[slot(yielder)] = int32(len(d.tr.steps) - 1)
	}
	if p.Index(p.Current) >= 0 && choice != p.Current && yielder < 0 {
		d.cost++
	}
	return idx
}

// choose decides a goroutine point and returns the goroutine and the
// level it is at (-1 if not branching).
func (d *DPOR) choose(p *Point, en []int, yielder int) (int, int) {
	if len(en) == 1 {
		if d.pos >= len(d.levels) && d.blockedAt < 0 && isAsleep(d.sleep, en[0]) {
			d.blockedAt = len(d.tr.steps)
			d.blocked++
		}
		return en[0], -1
	}
	free := p.Index(p.Current) < 0 || yielder >= 0
	if d.pos < len(d.levels) {
		lv := &d.levels[d.pos]
		if lv.Kind == Goroutine && slices.Contains(en, lv.Chosen) {
			lv.N, lv.Cur, lv.Free, lv.Cost = len(en), p.Current, free, d.cost
			if !slices.Equal(lv.Enabled, en) {
				lv.Enabled = slices.Clone(en) // (it may be shared)
			}
			lv.Sleep = d.sleepIDs(lv.Sleep[:0])
			d.addDone(p, lv)
			if d.states {
				for len(d.lst) <= d.pos {
					d.lst = append(d.lst, lvState{})
				}
				ls := &d.lst[d.pos]
				ls.t, ls.sig = len(d.tr.steps), p.State
			}
			d.pos++
			return lv.Chosen, d.pos - 1
		}
		// The program did not replay: go on from here with new points.
		d.diverged++
		d.levels = d.levels[:d.pos]
		if len(d.lst) > d.pos {
			d.lst = d.lst[:d.pos]
		}
	}
	if d.blockedAt >= 0 {
		return d.firstOf(p.Current, en, nil), -1
	}
	if d.tryMatch(p) {
		// Explored already: what follows is outside the search.
		d.blockedAt = len(d.tr.steps)
		return d.firstOf(p.Current, en, nil), -1
	}
	c := d.firstOf(p.Current, en, d.sleep)
	if c == noChoice {
		// Every enabled goroutine sleeps: whatever follows is
		// equivalent to schedules explored already.
		d.blockedAt = len(d.tr.steps)
		d.blocked++
		return d.firstOf(p.Current, en, nil), -1
	}
	d.levels = append(d.levels, dlevel{Kind: Goroutine, N: len(en), Chosen: c, Cur: p.Current,
		Free: free, Cost: d.cost, Enabled: d.enabledCopy(en), Backtrack: []int{c}, Sleep: d.sleepIDs(nil)})
	if d.states {
		for len(d.lst) < d.pos {
			d.lst = append(d.lst, lvState{})
		}
		d.lst = append(d.lst[:d.pos], lvState{t: len(d.tr.steps), sig: p.State, sum: map[sumEntry]struct{}{}})
	}
	d.pos++
	if d.pos > d.maxDepth {
		d.maxDepth = d.pos
	}
	return c, d.pos - 1
}

// enabledCopy returns en, for a new level, sharing the previous level's
// slice when it is the same set in the same order: with a thousand
// goroutines alive, a copy per level was most of what dpor allocated.
// Levels' Enabled slices are therefore never written to.
func (d *DPOR) enabledCopy(en []int) []int {
	if n := len(d.levels); n > 0 && slices.Equal(d.levels[n-1].Enabled, en) {
		return d.levels[n-1].Enabled
	}
	return slices.Clone(en)
}

// firstOf returns the first goroutine of en in Maple's order from cur
// that is not asleep, or noChoice.
func (d *DPOR) firstOf(cur int, en []int, asleep []sleeper) int {
	best, bestRank := noChoice, 0
	for _, g := range en {
		if isAsleep(asleep, g) {
			continue
		}
		if r := mapleRank(cur, g); best == noChoice || r < bestRank {
			best, bestRank = g, r
		}
	}
	return best
}

func isAsleep(s []sleeper, g int) bool {
	for _, x := range s {
		if x.g == g {
			return true
		}
	}
	return false
}

func (d *DPOR) sleepIDs(dst []int) []int {
	for _, s := range d.sleep {
		dst = append(dst, s.g)
	}
	slices.Sort(dst)
	return dst
}

// addDone puts the goroutines tried at lv before its choice to sleep, with
// their pending events at this point. Under a bound nothing sleeps.
func (d *DPOR) addDone(p *Point, lv *dlevel) {
	if d.bound >= 0 {
		return
	}
	for _, t := range lv.Done {
		i := p.Index(t.G)
		if i < 0 || isAsleep(d.sleep, t.G) {
			continue
		}
		d.sleep = append(d.sleep, d.sleeper(p, i, t.Wild))
	}
}

func (d *DPOR) sleeper(p *Point, i int, wild bool) sleeper {
	s := sleeper{g: p.Choices[i], a0: len(d.sleepAcc), wild: wild}
	if i < len(p.Events) {
		d.sleepAcc = append(d.sleepAcc, p.Events[i].Acc...)
	} else {
		s.wild = true // no event: assume the worst
	}
	s.a1 = len(d.sleepAcc)
	return s
}

// dropAbsentSleepers forgets sleepers that are not enabled any more: only
// a conflicting step can disable a goroutine, and it wakes the sleeper, so
// this happens only when something outside the runtime's control did.
func (d *DPOR) dropAbsentSleepers(p *Point) {
	k := 0
	for _, s := range d.sleep {
		if p.Index(s.g) >= 0 {
			d.sleep[k] = s
			k++
		}
	}
	d.sleep = d.sleep[:k]
}

// record appends the step taken at p to the trace.
func (d *DPOR) record(p *Point, idx, level int) {
	g := p.Choices[idx]
	s := step{g: int32(g), level: int32(level), a0: int32(len(d.tr.acc)), after: d.tr.yieldFrom[slot(g)]}
	d.tr.yieldFrom[slot(g)] = -1
	if g == Clock {
		d.clockDue = false
	}
	if idx < len(p.Events) {
		d.tr.acc = append(d.tr.acc, p.Events[idx].Acc...)
	} else {
		s.flags |= stepGlobal
	}
	s.a1 = int32(len(d.tr.acc))
	ev := Event{Acc: d.tr.acc[s.a0:s.a1]}
	if ev.global() || ev.huge() {
		s.flags |= stepGlobal
	}
	d.tr.steps = append(d.tr.steps, s)
	if d.states && g != Clock {
		d.gsteps[g]++ // the runtime counts the steps of goroutines only
	}
	// The chosen goroutine leaves the sleep set (it never is in it, but
	// a replay that diverged may have put it there).
	k := 0
	for _, x := range d.sleep {
		if x.g != g {
			d.sleep[k] = x
			k++
		}
	}
	d.sleep = d.sleep[:k]
}

// complete adds to the last step what it did beyond its pending event,
// then wakes the sleepers it conflicts with. yielder, if not noChoice, is
// the goroutine that reached the point by yielding.
func (d *DPOR) complete(last *Event, yielder int) {
	n := len(d.tr.steps)
	if n == 0 {
		return
	}
	// The step's accesses are the last of the trace: nothing was recorded
	// since.
	s := &d.tr.steps[n-1]
	if int(s.g) == yielder {
		// The step ran up to a yield: after it the yielder may not
		// run until another goroutine has taken a step, so it decides
		// which steps of the others can come before the yielder's
		// next one. As an ordinary step it commutes with the steps it
		// does not touch, and a race reversed by running it earlier
		// took its next step along (v = the step, then the next), a
		// sequence the forced switch forbids: the reversal that
		// mattered, this step before another goroutine's, was never
		// made (docs/strategies.md, "Yields"). Global, it races with
		// every step of the others, local ones too (the step forced
		// right after it may be one), and where they stand relative to
		// the yield is explored like any order of conflicting steps.
		s.flags |= stepGlobal | stepWild | stepAll
	}
	barrier := false
	for _, a := range last.Acc {
		switch {
		case a.Op == OpBarrier:
			barrier = true
		case a.Op == OpGlobal || a.Size > maxWords*8:
			s.flags |= stepGlobal | stepWild
		default:
			s.flags |= stepWild
			d.tr.acc = append(d.tr.acc, a)
		}
	}
	s.a1 = int32(len(d.tr.acc))
	if s.level >= 0 && int(s.level) < len(d.levels) {
		if lv := &d.levels[s.level]; lv.Chosen == int(s.g) {
			lv.Wild = s.flags&stepWild != 0
		}
	}
	if barrier {
		// Every goroutine was blocked and the clock moved: a timer
		// fired, a step of the clock's that conflicts with every
		// other. Its races put the clock where it was offered, to
		// fire the timer earlier; where it was not, the race cannot
		// be reversed (race), and the step only orders what came
		// before it before what comes after.
		d.sleep = d.sleep[:0]
		d.fired()
		return
	}
	ev := d.tr.event(n - 1)
	global := s.flags&stepGlobal != 0
	k := 0
	for _, x := range d.sleep {
		if x.wild || global || Dependent(&Event{Acc: d.sleepAcc[x.a0:x.a1]}, &ev) {
			continue
		}
		d.sleep[k] = x
		k++
	}
	d.sleep = d.sleep[:k]
}

// fireWhereOffered puts the clock in the backtrack set of the last point
// of each run of points that offered it, when it was not chosen there: a
// step after that point disabled the firing (a Stop or Reset of the timer,
// a receive that drained its channel), or the execution ended. The firing,
// never a step of this execution, has no race of its own in its trace to
// reverse: the race with the disabling step is reversed here, by firing at
// the last point it could. Where the firing is then a step, its races with
// the steps before it bring it earlier, point by point (it conflicts with
// every step). Only the last run was reversed once, and a bug that needs
// two timers fired early, each before its own Stop (a loop that starts and
// stops a timer per round), was proved absent.
func (d *DPOR) fireWhereOffered() {
	next := false // the next goroutine point offered the clock
	for l := len(d.levels) - 1; l >= 0; l-- {
		lv := &d.levels[l]
		if lv.Kind != Goroutine {
			continue
		}
		offered := slices.Contains(lv.Enabled, Clock)
		end := offered && !next
		next = offered
		if !end {
			continue
		}
		switch {
		case lv.Chosen == Clock || slices.Contains(lv.Backtrack, Clock):
		case d.bound < 0:
			if !slices.Contains(lv.Sleep, Clock) {
				lv.Backtrack = append(lv.Backtrack, Clock)
			}
		case d.within(lv, Clock):
			lv.Backtrack = append(lv.Backtrack, Clock)
		default:
			d.clipped = true
		}
	}
}

// cutWhereEnabled treats the last step, in which a bug ended the
// execution, as disabling every other goroutine: it conflicts with every
// step, local ones too (where a goroutine stood when the execution ended
// is part of its outcome), and the pending step of each goroutine enabled
// at its point, which
// the execution never took, races with it. Such a step is in no trace, so
// the race is reversed here: each goroutine enabled there joins the
// backtrack set (unless asleep: its steps from there were explored). A
// panic in one goroutine hid the schedules where another goroutine's
// pending step came first (a Done panicking on a negative counter before
// the Add of a goroutine that had not run yet).
func (d *DPOR) cutWhereEnabled() {
	n := len(d.tr.steps)
	if n == 0 {
		return
	}
	s := &d.tr.steps[n-1]
	s.flags |= stepGlobal | stepWild | stepAll
	lv := d.levelOf(n - 1)
	if lv == nil || lv.Kind != Goroutine || lv.Chosen != int(s.g) {
		return
	}
	lv.Wild = true
	d.cutOff = append(d.cutOff, lv.Enabled...)
	for _, g := range lv.Enabled {
		switch {
		case g == lv.Chosen || slices.Contains(lv.Backtrack, g) || slices.Contains(lv.Sleep, g):
		case d.bound < 0 || d.within(lv, g):
			lv.Backtrack = append(lv.Backtrack, g)
		default:
			d.clipped = true
		}
	}
}

// fired appends to the trace a firing of the clock that no point chose.
func (d *DPOR) fired() {
	d.tr.see(Clock)
	a := int32(len(d.tr.acc))
	d.tr.steps = append(d.tr.steps, step{g: Clock, level: -1, a0: a, a1: a, after: -1, flags: stepGlobal})
	d.clockDue = false
}

// nextBranch decides a point DPOR does not reduce (a select case, or a
// kind it does not know): every choice is a branch.
func (d *DPOR) nextBranch(p *Point) int {
	if d.blockedAt >= 0 {
		return 0
	}
	if d.pos < len(d.levels) {
		lv := &d.levels[d.pos]
		if lv.Kind == p.Kind && lv.N == len(p.Choices) {
			d.pos++
			return lv.Chosen
		}
		d.diverged++
		d.levels = d.levels[:d.pos]
	}
	d.levels = append(d.levels, dlevel{Kind: p.Kind, N: len(p.Choices)})
	d.pos++
	if d.pos > d.maxDepth {
		d.maxDepth = d.pos
	}
	return 0
}

// EndExecution completes the last step and analyses the execution.
func (d *DPOR) EndExecution(end End) {
	if d.running {
		d.finish(end)
	}
}

// finish analyses the execution that ended: its races add backtrack
// points to the levels.
func (d *DPOR) finish(end End) {
	d.running = false
	d.complete(&end.Last, noChoice)
	if end.Unseen {
		d.unseenRuns++
	}
	if end.Uncontrolled {
		d.uncontrolled++
	}
	if end.EarlyTimers {
		d.earlyTimers++
	}
	if end.Values {
		d.valueRuns++
	}
	if d.pos < len(d.levels) {
		// The execution ended before replaying its whole schedule.
		d.diverged++
		d.levels = d.levels[:d.pos]
		if len(d.lst) > d.pos {
			d.lst = d.lst[:d.pos]
		}
	}
	d.cutOff = d.cutOff[:0]
	if end.Cut && d.blockedAt < 0 {
		d.cutWhereEnabled()
	}
	if d.blockedAt < 0 {
		d.fireWhereOffered()
	}
	if d.clockDue && d.blockedAt < 0 {
		// A timer offered early never fired: its firing is a step
		// the execution could still have taken. As the last step,
		// it races with the last step of every goroutine, and those
		// races put the clock where it was offered.
		d.fired()
	}
	n := len(d.tr.steps)
	if d.blockedAt >= 0 {
		n = d.blockedAt
	}
	d.an.analyse(&d.tr, n, d.race)
	if d.states {
		d.currents(n)
		d.summarize()
	}
	if !d.workLeft() {
		// Known now rather than at the next NewExecution: a portfolio
		// can stop at once.
		if d.states {
			d.remember(0)
		}
		d.levels, d.lst = d.levels[:0], d.lst[:0]
		d.done = true
	}
}

// workLeft reports whether NewExecution would find a choice to try.
func (d *DPOR) workLeft() bool {
	if len(d.items) > 0 {
		return true
	}
	for i := range d.levels {
		lv := &d.levels[i]
		if lv.Kind != Goroutine {
			if lv.Chosen+1 < lv.until() {
				return true
			}
			continue
		}
		if _, ok := d.pickAt(i); ok {
			return true
		}
	}
	return false
}

// race reverses the race between steps i and j (see DPOR).
func (d *DPOR) race(i, j int) {
	lv := d.levelOf(i)
	if lv == nil {
		return
	}
	gj := int(d.tr.steps[j].g)
	// A firing that the clock could not take at step i's point (no
	// timer due within the early window there) is still reversed
	// through its other initials: one of them may be the step that
	// starts the timer (a Sleep, an AfterFunc), which, run before step
	// i, makes it due early enough to fire there (a sleeper's read
	// before the write of a goroutine that had not run yet).
	covered := func(g int) bool {
		if !slices.Contains(lv.Enabled, g) {
			return false
		}
		if d.bound >= 0 {
			return slices.Contains(lv.Backtrack, g) && d.within(lv, g)
		}
		return slices.Contains(lv.Backtrack, g) || slices.Contains(lv.Sleep, g)
	}
	inits, hit := d.an.initials(i, j, d.inits, covered)
	d.inits = inits
	if hit {
		return
	}
	q := noChoice
	for _, g := range inits {
		if slices.Contains(lv.Enabled, g) && (q == noChoice || g == gj) {
			q = g
		}
	}
	if q == noChoice {
		if int(d.tr.steps[j].after) == i {
			// Step i is the one taken where j's goroutine yielded:
			// j cannot come first, but another goroutine's step can
			// be the one forced there, and what j's goroutine sees
			// next may differ; v holds no such step when they all
			// come after j. Every goroutine enabled there is tried.
			for _, g := range lv.Enabled {
				if !covered(g) && (d.bound < 0 || d.within(lv, g)) {
					addOnce(&lv.Backtrack, g)
				}
			}
		}
		return // otherwise no initial can run there: the race cannot be reversed
	}
	if d.bound < 0 {
		lv.Backtrack = append(lv.Backtrack, q)
		return
	}
	d.boundedRace(i, lv, q)
}

// levelOf returns the level of step i's point, or nil if it did not branch.
func (d *DPOR) levelOf(i int) *dlevel {
	l := int(d.tr.steps[i].level)
	if l < 0 || l >= len(d.levels) {
		return nil
	}
	return &d.levels[l]
}

// boundedRace adds q at lv if the bound allows, and, as BPOR does, at the
// level where the goroutine of step i was last switched to, where a switch
// to q costs no more than the one made there.
func (d *DPOR) boundedRace(i int, lv *dlevel, q int) {
	if d.within(lv, q) {
		addOnce(&lv.Backtrack, q)
	} else {
		d.clipped = true
	}
	gi := int(d.tr.steps[i].g)
	for l := int(d.tr.steps[i].level); l >= 0; l-- {
		c := &d.levels[l]
		if c.Kind != Goroutine || c.Chosen != gi || (c.Cur == gi && !c.Free) {
			continue
		}
		if l == int(d.tr.steps[i].level) {
			return // lv itself is where gi was switched to
		}
		switch {
		case slices.Contains(c.Enabled, q):
			if d.within(c, q) {
				addOnce(&c.Backtrack, q)
			}
		default:
			for _, g := range c.Enabled {
				if d.within(c, g) {
					addOnce(&c.Backtrack, g)
				}
			}
		}
		return
	}
}

func addOnce(s *[]int, g int) {
	if !slices.Contains(*s, g) {
		*s = append(*s, g)
	}
}

// Exhausted reports whether every trace was explored.
func (d *DPOR) Exhausted() bool { return d.done }

// Proved reports whether the search is exhausted and nothing made it
// incomplete (a replay divergence, uncontrolled code, a timer that could
// have fired early when the runtime withheld the choice, steps the fair
// scheduler took, an execution not analysed, a bound that left a
// backtrack point out, an execution pruned at a matched state: the
// signature leaves out goroutines' locals, such as a clock reading kept in
// a variable; a value no decision chose): then every schedule of the test
// is equivalent to one explored.
func (d *DPOR) Proved() bool {
	return d.done && len(d.unproved()) == 0
}

// unproved lists what makes the search incomplete.
func (d *DPOR) unproved() []string {
	var why []string
	if d.bound >= 0 && d.clipped {
		why = append(why, fmt.Sprintf("schedules with more than %d preemptions were left out", d.bound))
	}
	if d.matched > 0 {
		why = append(why, fmt.Sprintf("%d executions pruned at a state explored before (its signature leaves out memory no hook touched)", d.matched))
	}
	if d.stopped > 0 {
		why = append(why, fmt.Sprintf("%d points completed by seed 002's closed-subset rule (proved for its stateful setting, not for this one)", d.stopped))
	}
	if d.diverged > 0 {
		why = append(why, fmt.Sprintf("%d replay divergences: the program is not deterministic under gosct", d.diverged))
	}
	if d.lost > 0 {
		why = append(why, fmt.Sprintf("%d executions not analysed (their process died)", d.lost))
	}
	if d.uncontrolled > 0 {
		why = append(why, fmt.Sprintf("%d executions ran code outside gosct's control", d.uncontrolled))
	}
	if d.earlyTimers > 0 {
		why = append(why, fmt.Sprintf("%d executions had a timer that could fire early and dpor was not offered the choice (it also asked for positions)", d.earlyTimers))
	}
	if d.unseenRuns > 0 {
		why = append(why, fmt.Sprintf("%d executions finished by the fair scheduler", d.unseenRuns))
	}
	if d.valueRuns > 0 {
		why = append(why, fmt.Sprintf("%d executions read values no decision chose (math/rand, crypto/rand, a map's order, the clock): another --seed reads others", d.valueRuns))
	}
	return why
}

// Status describes the search, e.g. "exhausted: 24 schedules (3 sleep-set
// blocked)".
func (d *DPOR) Status() string {
	var st string
	switch {
	case d.done && d.bound >= 0 && !d.clipped:
		st = fmt.Sprintf("exhausted: %d schedules, none has more than %d preemptions", d.runs, d.bound)
	case d.done && d.bound >= 0:
		st = fmt.Sprintf("exhausted within bound %d: %d schedules", d.bound, d.runs)
	case d.done:
		st = fmt.Sprintf("exhausted: %d schedules", d.runs)
	default:
		st = fmt.Sprintf("%d schedules, not exhausted", d.runs)
	}
	if d.blocked > 0 {
		st += fmt.Sprintf(" (%d sleep-set blocked)", d.blocked)
	}
	if d.states {
		st += fmt.Sprintf(" (%d pruned at a state explored before, %d points completed by the closed-subset rule, %d states remembered)", d.matched, d.stopped, len(d.visited))
	}
	why := d.unproved()
	switch {
	case len(why) == 0:
	case d.done:
		st = NotAProof(st, strings.Join(why, "; "))
	default:
		st += "; " + strings.Join(why, "; ") + ": the search may be incomplete"
	}
	return st
}
