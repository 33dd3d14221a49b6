package strategies

import "slices"

// The trace of one execution, as dpor records it, and the race analysis
// run on it when the execution ends (the deferred race detection of
// Nidhugg and of the source-sets paper, §5: the races of an execution are
// the same whether found step by step or at its end).

// A step is one goroutine point of the execution and the step taken there.
type step struct {
	g     int32 // goroutine that took the step
	level int32 // index in DPOR.levels of the point, -1 when it did not branch
	a0    int32 // its accesses: trace.acc[a0:a1]
	a1    int32
	// after is a step that must precede this one though it may not
	// conflict with it: the step taken at the point where this step's
	// goroutine yielded (the yielder may not run next), or -1. It is a
	// dependency of this step, which races with it.
	after int32
	flags uint8
}

const (
	stepGlobal uint8 = 1 << iota // conflicts with every other step
	stepWild                     // did more than its pending event said
	stepAll                      // conflicts with local steps too (see analyse)
)

type trace struct {
	steps []step
	acc   []Access
	// born[slot(g)] is the step that created goroutine g (its first step
	// happens after it), -1 for the test goroutine, the clock and
	// goroutines of unknown origin.
	born []int32
	// yieldFrom[slot(g)] is the step taken at the point where g yielded,
	// until g's next step takes it as its after (-1: none).
	yieldFrom []int32
}

// slot is the index of goroutine g (or of the clock) in the slices the
// trace and its analysis keep per goroutine, vector clocks included. The
// clock's firings are the steps of a goroutine of their own: successive
// firings are ordered (the clock only moves forward), and a firing races
// with the steps it depends on as any step does. Its id, Clock, is
// negative, so it takes slot 0 and goroutine g slot g+1.
func slot(g int) int {
	if g == Clock {
		return 0
	}
	return g + 1
}

func (t *trace) reset() {
	t.steps, t.acc, t.born, t.yieldFrom = t.steps[:0], t.acc[:0], t.born[:0], t.yieldFrom[:0]
}

// see makes room for goroutine g (or the clock); new goroutines were
// created by the last step recorded. Nothing creates the clock.
func (t *trace) see(g int) {
	for len(t.born) <= slot(g) {
		b := int32(len(t.steps)) - 1
		if len(t.born) == slot(Clock) {
			b = -1
		}
		t.born = append(t.born, b)
		t.yieldFrom = append(t.yieldFrom, -1)
	}
}

// event returns the accesses of step i.
func (t *trace) event(i int) Event {
	s := &t.steps[i]
	return Event{Acc: t.acc[s.a0:s.a1:s.a1]}
}

// analysis is the happens-before relation of a trace, computed once the
// execution has ended, and the races it contains.
type analysis struct {
	t *trace
	n int // steps analysed: those of the search
	// snap[i] is the clock of step i but for its goroutine's own entry,
	// which is local[i]: a step shares the clock stored for its
	// goroutine's previous step unless it learnt of another goroutine's
	// step (clockStore). With hundreds of goroutines, a step's clock has
	// hundreds of entries, and most steps learn nothing.
	snap  [][]uint32
	store clockStore
	local []uint32   // local[i]: index (1-based) of step i among its goroutine's
	base  [][]uint32 // by slot, as gLast
	gLast []int32
	// gDep is, by slot, the last step that is not local (it has an
	// access, or is global): what a global step depends on. A local step
	// commutes with every step (Event), a global one included.
	gDep   []int32
	objs   map[uintptr]int32 // word -> index in hists
	hists  []objHist
	global int32 // last global step, -1
	// lastFire is the last step of the clock, -1: every step before it
	// happens before it, every step after it after it (it is global).
	lastFire int32
	deps     []int32
	locks    []int32 // lock candidates of the step being analysed
	// lockSeen[l] is j+1 when step l is a lock candidate of step j
	// already (a mark: the candidates' membership in O(1)); maxima and
	// byStep are lockRaces' scratch.
	lockSeen []int32
	cur      int32 // the step being analysed
	maxima   []int32
	byStep   []int32
	prev     []uint32
	seen     []bool
	// verify, in tests, is given each step's full clock once it is
	// analysed (the clock snap[i] stands for).
	verify func(j int, clock []uint32)
}

// objHist is what a word of memory or a synchronization object remembers:
// its last conflicting step and, since then, the last observing step of
// each goroutine.
type objHist struct {
	w     int32
	reads []int32
	// locks holds the last OpLock step of each goroutine (see lockRaces).
	locks []int32
}

// maxWords bounds the words one access is tracked by; a step with a larger
// access counts as global (recorded so when the trace is).
const maxWords = 4096

// huge reports whether ev has an access too large to track by words.
func (ev *Event) huge() bool {
	for _, a := range ev.Acc {
		if a.Size > maxWords*8 {
			return true
		}
	}
	return false
}

// hb reports whether step a happens before step b (a != b).
func (an *analysis) hb(a, b int) bool {
	if an.t.steps[a].g == an.t.steps[b].g {
		return a < b // program order; snap[b]'s own entry may be stale
	}
	g := slot(int(an.t.steps[a].g))
	c := an.snap[b]
	return g < len(c) && c[g] >= an.local[a]
}

// hbClock reports whether step a happens before a point whose clock is c.
func (an *analysis) hbClock(a int, c []uint32) bool {
	g := slot(int(an.t.steps[a].g))
	return g < len(c) && c[g] >= an.local[a]
}

func joinClock(dst, src []uint32) []uint32 {
	dst, _ = joinLearn(dst, src)
	return dst
}

// joinLearn joins src into dst and reports whether dst learnt anything.
func joinLearn(dst, src []uint32) ([]uint32, bool) {
	for len(dst) < len(src) {
		dst = append(dst, 0)
	}
	grew := false
	for i, x := range src {
		if x > dst[i] {
			dst[i] = x
			grew = true
		}
	}
	return dst, grew
}

// joinStep joins the clock of step i into dst and reports whether dst
// learnt anything.
func (an *analysis) joinStep(dst []uint32, i int) ([]uint32, bool) {
	dst, grew := joinLearn(dst, an.snap[i])
	g := slot(int(an.t.steps[i].g))
	for len(dst) <= g {
		dst = append(dst, 0)
	}
	if l := an.local[i]; l > dst[g] {
		dst[g] = l
		grew = true
	}
	return dst, grew
}

// A clockStore holds the clocks of a trace's steps in chunks kept from one
// analysis to the next, so that storing one never copies those stored
// before it (a trace of 20,000 steps among 1,000 goroutines stores tens of
// megabytes of clocks: appended to one slice, the first analysis spent
// most of its time growing it).
type clockStore struct {
	chunks [][]uint32
	cur    int // chunk being filled
	used   int // entries of chunks[cur] in use
}

const clockChunk = 1 << 16

func (cs *clockStore) reset() { cs.cur, cs.used = 0, 0 }

// save returns a copy of c that lives until the next reset.
func (cs *clockStore) save(c []uint32) []uint32 {
	if len(c) > clockChunk/4 {
		return slices.Clone(c)
	}
	if cs.used+len(c) > clockChunk {
		cs.cur, cs.used = cs.cur+1, 0
	}
	for len(cs.chunks) <= cs.cur {
		cs.chunks = append(cs.chunks, make([]uint32, clockChunk))
	}
	dst := cs.chunks[cs.cur][cs.used : cs.used+len(c) : cs.used+len(c)]
	copy(dst, c)
	cs.used += len(c)
	return dst
}

// analyse computes the happens-before relation of the first n steps and
// calls race for every race in them: a pair of conflicting steps of two
// goroutines, the first happening before the second with no other step in
// between in the happens-before order.
func (an *analysis) analyse(t *trace, n int, race func(d, j int)) {
	an.t, an.n = t, n
	an.snap, an.local = an.snap[:0], an.local[:0]
	an.store.reset()
	ng := len(t.born)
	for len(an.base) < ng {
		an.base = append(an.base, nil)
	}
	an.base = an.base[:ng]
	an.gLast, an.gDep = an.gLast[:0], an.gDep[:0]
	for g := 0; g < ng; g++ {
		an.base[g] = an.base[g][:0]
		an.gLast = append(an.gLast, -1)
		an.gDep = append(an.gDep, -1)
	}
	if an.objs == nil {
		an.objs = map[uintptr]int32{}
	}
	clear(an.objs)
	an.hists = an.hists[:0]
	an.global = -1
	an.lastFire = -1
	an.lockSeen = an.lockSeen[:0]
	for len(an.lockSeen) < n {
		an.lockSeen = append(an.lockSeen, 0)
	}
	for j := 0; j < n; j++ {
		an.cur = int32(j)
		s := &t.steps[j]
		g := slot(int(s.g))
		// The goroutine's clock before the step: its previous step, or
		// the step that created it, and the steps it must follow.
		b := an.base[g]
		learnt := an.gLast[g] < 0 // nothing stored to share
		if an.gLast[g] < 0 && t.born[g] >= 0 && int(t.born[g]) < j {
			b, _ = an.joinStep(b, int(t.born[g]))
		}
		an.prev = append(an.prev[:0], b...)
		an.deps, an.locks = an.deps[:0], an.locks[:0]
		if s.flags&stepGlobal != 0 {
			last := an.gDep
			if s.flags&stepAll != 0 {
				// A step that reached a yield (which step of
				// another goroutine comes right after it is
				// forced, a local one too) or in which a bug
				// ended the execution (it disabled every
				// goroutine, however far each had got): it is
				// ordered after the last step of each.
				last = an.gLast
			}
			for h, l := range last {
				if h != g && l >= 0 {
					an.deps = append(an.deps, l)
				}
			}
		} else {
			if an.global >= 0 {
				an.deps = append(an.deps, an.global)
			}
			for _, a := range t.acc[s.a0:s.a1] {
				an.touch(a)
			}
		}
		if s.after >= 0 && int(s.after) < j {
			// The step taken where this one's goroutine yielded
			// comes before it, as a dependency, not as program
			// order: the race is reversed through another step at
			// the yield (which of the others' steps is forced there
			// decides what this goroutine sees next).
			an.addDep(s.after)
		}
		for _, d := range an.deps {
			var grew bool
			b, grew = an.joinStep(b, int(d))
			learnt = learnt || grew
		}
		for len(b) <= g {
			b = append(b, 0)
		}
		b[g]++
		an.local = append(an.local, b[g])
		if learnt {
			an.snap = append(an.snap, an.store.save(b))
		} else {
			an.snap = append(an.snap, an.snap[an.gLast[g]])
		}
		an.base[g] = b
		if an.verify != nil {
			an.verify(j, b)
		}
		an.gLast[g] = int32(j)
		if s.a1 > s.a0 || s.flags&stepGlobal != 0 {
			an.gDep[g] = int32(j)
		}
		if s.flags&stepGlobal != 0 {
			an.global = int32(j)
		}
		// Record the step in the objects it touched.
		if s.flags&stepGlobal == 0 {
			for _, a := range t.acc[s.a0:s.a1] {
				an.record(j, a)
			}
		}
		for _, d := range an.deps {
			if t.steps[d].g != s.g && an.immediate(int(d)) {
				race(int(d), j)
			}
		}
		an.lockRaces(j, race)
		if s.g == Clock {
			an.lastFire = int32(j)
		}
	}
}

// immediate reports whether dependency d of the step being analysed is
// not already ordered before it through another of its predecessors.
func (an *analysis) immediate(d int) bool {
	if an.hbClock(d, an.prev) {
		return false
	}
	for _, x := range an.deps {
		if int(x) != d && an.hb(d, int(x)) {
			return false
		}
	}
	return true
}

// words calls f for every word an access covers; false if too many.
func words(a Access, f func(w uintptr)) bool {
	lo, hi := a.span()
	if (hi-1)/8-lo/8 >= maxWords {
		return false
	}
	for w := lo / 8; w <= (hi-1)/8; w++ {
		f(w)
	}
	return true
}

// touch adds to an.deps the earlier steps that access a conflicts with.
func (an *analysis) touch(a Access) {
	if a.Op == OpGlobal || a.Op == OpBarrier {
		return
	}
	words(a, func(w uintptr) {
		hi, found := an.objs[w]
		if !found {
			return
		}
		h := &an.hists[hi]
		if h.w >= 0 {
			an.addDep(h.w)
		}
		if !a.Op.observes() {
			for _, r := range h.reads {
				an.addDep(r)
			}
		}
		if a.Op == OpLock {
			for _, l := range h.locks {
				if mark := an.cur + 1; an.lockSeen[l] != mark {
					an.lockSeen[l] = mark
					an.locks = append(an.locks, l)
				}
			}
		}
	})
}

func (an *analysis) addDep(d int32) {
	for _, x := range an.deps {
		if x == d {
			return
		}
	}
	an.deps = append(an.deps, d)
}

// record notes step j's access a in the history of its words.
func (an *analysis) record(j int, a Access) {
	if a.Op == OpGlobal || a.Op == OpBarrier {
		return
	}
	g := an.t.steps[j].g
	words(a, func(w uintptr) {
		hi, found := an.objs[w]
		if !found {
			hi = int32(len(an.hists))
			if len(an.hists) < cap(an.hists) {
				an.hists = an.hists[:hi+1]
				h := &an.hists[hi]
				h.w, h.reads, h.locks = -1, h.reads[:0], h.locks[:0]
			} else {
				an.hists = append(an.hists, objHist{w: -1})
			}
			an.objs[w] = hi
		}
		h := &an.hists[hi]
		if a.Op == OpLock {
			h.locks = setLast(h.locks, an.t, g, int32(j))
		}
		if !a.Op.observes() {
			h.w, h.reads = int32(j), h.reads[:0]
			return
		}
		h.reads = setLast(h.reads, an.t, g, int32(j))
	})
}

// setLast records j as goroutine g's last step in s, one per goroutine.
func setLast(s []int32, t *trace, g int32, j int32) []int32 {
	for i, r := range s {
		if t.steps[r].g == g {
			s[i] = j
			return s
		}
	}
	return append(s, j)
}

func containsInt32(s []int32, x int32) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// lockRaces reports the races of a lock step j with the earlier lock
// steps of other goroutines on the same mutex. An unlock between them
// orders them in the trace, but the other order was possible all the same
// (whoever locks first wins): the race between two acquisitions is hidden
// behind the release, and DPOR must reverse it (the source-sets paper's
// treatment of locks). A goroutine that lost the mutex to another is
// blocked again without a step of its own (the runtime's model makes
// every waiter runnable on an unlock), so the acquisition it makes later
// would otherwise never be seen racing with the one that beat it. A
// candidate is a race unless it happens before j's goroutine's previous
// step or before another candidate, or a firing of the clock came between
// them (the firing orders them: a goroutine that acquires after a timer
// fired while every goroutine was blocked could not have acquired before,
// and the races of an early firing reverse it where it could); races
// found twice are harmless.
func (an *analysis) lockRaces(j int, race func(d, j int)) {
	if len(an.locks) == 0 {
		return
	}
	g := an.t.steps[j].g
	// A candidate happens before another candidate exactly when it
	// happens before one of the candidates that happen before none
	// (the maxima; the relation is transitive): with the acquisitions of
	// one mutex ordered by its releases there is one, so each candidate
	// is checked against one or a few, not against all of them.
	an.byStep = append(an.byStep[:0], an.locks...)
	slices.Sort(an.byStep)
	an.maxima = an.maxima[:0]
	for i := len(an.byStep) - 1; i >= 0; i-- {
		x := an.byStep[i]
		if an.t.steps[x].g == g {
			continue
		}
		dominated := false
		for _, m := range an.maxima {
			if an.hb(int(x), int(m)) {
				dominated = true
				break
			}
		}
		if !dominated {
			an.maxima = append(an.maxima, x)
		}
	}
	for _, l := range an.locks {
		if an.t.steps[l].g == g || l < an.lastFire || an.hbClock(int(l), an.prev) || containsInt32(an.deps, l) {
			continue
		}
		later := false
		for _, m := range an.maxima {
			if m != l && an.hb(int(l), int(m)) {
				later = true
				break
			}
		}
		if !later {
			race(int(l), j)
		}
	}
}

// initials returns the goroutines that can start v = notdep(d, E).j: the
// steps after d that do not happen after it, then j, reordered with v's
// order; a goroutine is an initial when its first step in v happens after
// no other step of v. Only those among candidates (the goroutines that
// could be chosen at d's point) are returned, in order of first step;
// stop, if it returns true for an initial, ends the search early.
func (an *analysis) initials(d, j int, dst []int, stop func(g int) bool) ([]int, bool) {
	ng := len(an.t.born)
	for len(an.seen) < ng {
		an.seen = append(an.seen, false)
	}
	seen := an.seen[:ng]
	for i := range seen {
		seen[i] = false
	}
	var firsts []int
	dst = dst[:0]
	consider := func(k int) bool {
		g := int(an.t.steps[k].g)
		if seen[slot(g)] {
			return false
		}
		seen[slot(g)] = true
		init := true
		for _, f := range firsts {
			if an.hb(f, k) {
				init = false
				break
			}
		}
		firsts = append(firsts, k)
		if init {
			if stop(g) {
				return true
			}
			dst = append(dst, g)
		}
		return false
	}
	for k := d + 1; k < j; k++ {
		if an.hb(d, k) {
			continue
		}
		if consider(k) {
			return dst, true
		}
	}
	return dst, consider(j)
}
