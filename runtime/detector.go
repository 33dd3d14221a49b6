package runtime

import (
	"unsafe"
)

// The happens-before race detector: FastTrack (Flanagan and Freund, PLDI
// 2009) over the accesses the rewriter instruments. Every goroutine of
// the execution has a vector clock; every synchronization Go defines
// (detector_edges.go) moves clocks between goroutines through the sync
// object; memory is shadowed by 8-byte words, as ThreadSanitizer does,
// and each word remembers, per byte mask and atomicity of the accesses
// made to it, the epoch of the last write and of the last read (a full
// read clock only while reads are concurrent). An access that is not
// ordered after a conflicting earlier one on an overlapping byte is a
// race; two atomic accesses never conflict, an atomic and a plain one do
// (ThreadSanitizer's rule).
//
// The state lives in the execution's detector (execution.race) and is
// dropped with it. Every access carries its Site (the rewriter's: the
// expression and its position), so a report names both accesses in the
// user's terms in every execution; the stack of an earlier access costs
// runtime.Callers at every access and is recorded only in detailed
// executions (the re-run of a buggy schedule that writes its trace, and
// replays).

// raceMode says what the detector does.
type raceMode uint8

const (
	// racesOff: no detector; accesses are only scheduling points.
	racesOff raceMode = iota
	// racesReport: accesses are scheduling points and a race is a bug,
	// reported when the execution ends unless a deeper bug (a panic, a
	// failed assertion, a deadlock) happened after it.
	racesReport
	// racesSync: scheduling points at synchronization only; the execution
	// stops at its first race (CHESS's sound mode).
	racesSync
)

// parseRaces maps wire.Config.Races to a mode and whether accesses are
// scheduling points. Empty is off: the command always says which
// (`gosct test --races`, report by default).
//
//go:norace
func parseRaces(s string) (raceMode, bool) {
	switch s {
	case "report", "on":
		return racesReport, true
	case "sync", "sync-only":
		return racesSync, false
	}
	return racesOff, true
}

// Site is one access of the user's source, as the rewriter saw it: the
// expression (`s.count`, `cache.items[k]`) and its position (file:line).
// The rewriter emits one table of sites per file and passes a pointer
// into it to every access hook, so an access costs one pointer, and a
// race report names the variable as the user wrote it.
type Site struct {
	Expr string
	Pos  string
}

// access kinds, for the detector.
const (
	accRead   uint8 = 0
	accWrite  uint8 = 1
	accAtomic uint8 = 2
	// accCov: the coverage counts the access besides (a scheduling
	// point's, not a shadow access; execution.access).
	accCov uint8 = 4
)

// detector is the happens-before race detector of one execution, and the
// coverage of conflicting pairs its events feed: the execution holds it
// (execution.race) and tells it of every synchronization and access. Its
// methods take the goroutine that acts and the object it acts on; they
// are called with the execution's lock held, except where said.
//
// What it needs of the execution around it is set once, by
// newExecution: its mode (settings.races), steps to tell which object a
// channel operation touched (detailed executions, steps.go), whether the
// execution is over (the coverage counts nothing of its teardown), and
// the contexts instrumented code made (a close of a context's Done seen
// through its parent's cancel, context.go). The execution's lock, the
// token holder and the end of an execution at a race stay the
// execution's (access, raceAtomic).
type detector struct {
	mode raceMode
	// stopped: the detector stopped in this execution, past
	// maxRaceGoroutines goroutines.
	stopped bool
	hb      hbState
	// cov, when set, records the points reached and the orders of
	// conflicting ones (coverage.go).
	cov *coverage

	steps    objNoter
	over     *bool
	contexts *rmap[unsafe.Pointer, *ctxInfo]
}

// objNoter records which object the operation of a goroutine's step
// touched (steps.go).
type objNoter interface {
	noteObj(g *goroutine, p unsafe.Pointer)
}

// init readies d for an execution whose detector runs in mode, with
// what it needs of the execution (detector).
//
//go:norace
func (d *detector) init(mode raceMode, steps objNoter, over *bool, contexts *rmap[unsafe.Pointer, *ctxInfo]) {
	d.mode, d.steps, d.over, d.contexts = mode, steps, over, contexts
}

// hbState is the detector's state of an execution's clocks and shadow
// memory, emptied and kept for the next execution when it ends
// (detector_reuse.go).
type hbState struct {
	vcs []vclock // by goroutine id
	// pages are the shadow words, a page of them per pageWords words of
	// memory (keyed by page number), so that an access of N bytes costs
	// N/pageBytes map lookups and a loop over the words, not a lookup
	// per word; words is how many there are.
	pages rmap[uintptr, *shadowPage]
	words int
	// chunks are the runs of whole chunks (chunkPages pages each, keyed
	// by chunk number; nil once split), chunkRuns how many are not nil
	// (detector_runs.go).
	chunks    rmap[uintptr, *varState]
	chunkRuns int
	// pageList are the pages made, freePages those kept from an earlier
	// execution (detector_reuse.go).
	pageList, freePages []*shadowPage
	// lastPage caches the page looked up last (number lastPN).
	lastPN   uintptr
	lastPage *shadowPage
	// recent caches the last varState looked up at each of a few
	// slots (by word address): a program touches a few words again and
	// again, and a map lookup costs more than the rest of an access.
	recent [64]struct {
		w uintptr
		x *varState
	}
	// slab is where new varStates come from, a few at a time (slabSize,
	// doubling); slabs are all the slabs made, and free those kept from
	// an earlier execution (detector_reuse.go).
	slab     []varState
	slabSize int
	slabs    [][]varState
	free     [][]varState
	// clocks are emptied clocks kept from an earlier execution, for new
	// goroutines and sync objects.
	clocks []vclock
	// spare is the emptied hbSpare this state came from, reused to keep
	// it again.
	spare *hbSpare
	syncs rmap[unsafe.Pointer, vclock]
	chans rmap[unsafe.Pointer, *chanHB]
	// race is the first race found, reported when the execution ends
	// (racesReport); races are the distinct races found (by key), up to
	// maxRaces, listed in its report.
	race  *bug
	races []raceRec
	// pending is the address of an atomic compare-and-swap whose
	// release waits for its outcome (ThenCAS).
	pending unsafe.Pointer
}

// maxRaces bounds the races one execution lists.
const maxRaces = 32

// raceRec is one race of an execution, for its report.
type raceRec struct {
	key, line string
}

// pageWords is the words of memory a shadow page covers: a large
// access (copy(), append of a slice) looks up one page per pageBytes
// bytes; a page costs 8 bytes per word even where few are used.
const (
	pageWords = 64
	pageBytes = 8 * pageWords
	// A chunk is chunkPages pages: the unit of a run above a page's
	// (detector_runs.go).
	chunkPages = 64
	chunkBytes = pageBytes * chunkPages
)

// shadowPage holds the shadow words of pageBytes bytes of memory: one
// per word (w, nil where no access was made), or one for them all (run,
// detector_runs.go).
type shadowPage struct {
	w   [pageWords]*varState
	run *varState
}

// varState is the shadow of one 8-byte word: its cells, usually one.
type varState struct {
	c    cell
	more []cell
	// pin keeps the memory of the word alive while the execution runs.
	// The shadow is keyed by address, and the garbage collector would
	// otherwise free a variable and give its address to a new one
	// within the execution, whose first accesses would then race with
	// the old one's (a race Go's detector, told of every allocation,
	// does not see). Nil where the address may be on a stack.
	pin unsafe.Pointer
}

// cell is FastTrack's shadow of the accesses of one byte mask and one
// atomicity to a word.
type cell struct {
	mask   uint8
	atomic bool
	w, r   epoch
	// rvc holds the clocks of concurrent reads (FastTrack's read-shared
	// state), nil while reads are totally ordered.
	rvc          vclock
	wsite, rsite *Site
	rsites       []*Site
	det          *cellDetail
}

// cellDetail is what a detailed execution records besides: the stacks of
// the accesses.
type cellDetail struct {
	w, r []uintptr
	rs   [][]uintptr
}

// vc returns g's clock, creating it for a goroutine the detector has not
// seen. An adopted goroutine inherits its parent's clock (a subtest started
// through Run) or, when its parent is unknown (started by uncontrolled
// code), every clock, so that what we cannot see creates no false race.
// Lock held.
//
//go:norace
func (d *detector) vc(g *goroutine) *vclock {
	h := &d.hb
	for len(h.vcs) <= g.id {
		h.vcs = append(h.vcs, nil)
	}
	v := &h.vcs[g.id]
	if *v == nil {
		*v = h.newClock()
		switch {
		case !g.adopted:
			// A goroutine of the execution gets its parent's clock from
			// fork (or forkFrom), at its creation.
		case g.parent >= 0 && g.parent < len(h.vcs) && h.vcs[g.parent] != nil:
			v.join(h.vcs[g.parent])
		default:
			v.joinOwn(h.vcs)
		}
		v.set(g.id, v.get(g.id)+1)
	}
	return v
}

// tick starts a new epoch of g, after it released its clock.
//
//go:norace
func (d *detector) tick(g *goroutine) {
	v := d.vc(g)
	v.set(g.id, v.get(g.id)+1)
}

// maxRaceGoroutines is how many goroutines one execution may create before
// the detector stops for the rest of it. Its vector clocks are indexed by
// goroutine id and never reuse an id (ThreadSanitizer reuses slots), so
// every synchronization costs time in proportion to the goroutines created
// so far: a test that starts a million goroutines (chi's
// TestMuxContextIsThreadSafe) ran minutes per schedule instead of a second.
// Races found before the stop are reported; the test's result says that
// detection stopped (docs/races.md).
const maxRaceGoroutines = 10_000

// on reports whether the detector runs.
//
//go:norace
func (d *detector) on() bool { return d.mode != racesOff && !d.stopped }

// counting reports whether the coverage counts the detector's events:
// it is on, and the execution is not over.
//
//go:norace
func (d *detector) counting() bool { return d.cov != nil && !*d.over }

// raceFoundAt is a race found by one access, before it is reported.
type raceFoundAt struct {
	prev      epoch
	prevKind  uint8
	prevSite  *Site
	prevStack []uintptr
}

// raceFinds are the races one access found: one per earlier access it
// conflicts with (a copy of a struct races with the writes of two of its
// fields, as two races), up to a few. Made when an access finds its first.
type raceFinds struct {
	n int
	f [4]raceFoundAt
}

// add records f in *fs (made if nil) unless it names an earlier access
// recorded already.
//
//go:norace
func addRace(fs **raceFinds, f raceFoundAt) {
	if *fs == nil {
		*fs = &raceFinds{}
	}
	(*fs).add(f)
}

//go:norace
func (fs *raceFinds) add(f raceFoundAt) {
	for i := 0; i < fs.n; i++ {
		g := &fs.f[i]
		if f.prevSite != nil && g.prevSite == f.prevSite || f.prevSite == nil && g.prevSite == nil && g.prev == f.prev {
			return
		}
	}
	if fs.n < len(fs.f) {
		fs.f[fs.n] = f
		fs.n++
	}
}

// check checks an access of kind by me, the token holder, to size bytes
// at p made at site s (stk: its stack, in detailed executions), and
// returns the races it found, nil if none. The caller has taken the
// lock (execution.access).
//
//go:norace
func (d *detector) check(me *goroutine, p unsafe.Pointer, size uintptr, kind uint8, s *Site, stk []uintptr) *raceFinds {
	v := *d.vc(me)
	now := mkEpoch(me.id, v.get(me.id))
	start, end := uintptr(p), uintptr(p)+size
	if w := start &^ 7; end <= w+8 {
		// FastTrack's fast path, inline: one word, seen recently, one
		// cell, and this access made in this epoch already.
		slot := &d.hb.recent[(w>>3)&uintptr(len(d.hb.recent)-1)]
		if x := slot.x; slot.w == w && x != nil && len(x.more) == 0 && x.c.atomic == (kind&accAtomic != 0) &&
			x.c.mask == uint8(uint16(1)<<(end-w)-1)&^uint8(uint16(1)<<(start-w)-1) {
			c := &x.c
			if kind&accWrite != 0 && c.w == now || kind&accWrite == 0 && c.r == now {
				return nil
			}
		}
	}
	var found *raceFinds
	h := &d.hb
	atomic := kind&accAtomic != 0
	if w := start &^ 7; end <= w+8 {
		mask := uint8(uint16(1)<<(end-w)-1) &^ uint8(uint16(1)<<(start-w)-1)
		h.accessWord(h.word(p, w, mask, atomic), mask, kind, s, stk, v, now, &found)
		return found
	}
	// A range: a page at a time, a loop over its words, or one check of
	// a page whose words share one history (detector_runs.go).
	for w := start &^ 7; w < end; {
		if w%chunkBytes == 0 && start <= w && end-w >= chunkBytes && !atomic {
			if x := h.chunkRun(w/chunkBytes, p); x != nil {
				h.accessWord(x, 0xff, kind, s, stk, v, now, &found)
				w += chunkBytes
				continue
			}
		}
		pn := w / pageBytes
		pg := h.page(pn)
		pbeg := pn * pageBytes
		pend := min(end, pbeg+pageBytes)
		whole := start <= pbeg && pend == pbeg+pageBytes && !atomic
		if whole {
			if x := h.runOf(pg, p); x != nil {
				h.accessWord(x, 0xff, kind, s, stk, v, now, &found)
				w = pend
				continue
			}
		}
		if pg.run != nil {
			h.split(pg)
		}
		for ; w < pend; w += 8 {
			lo, hi := uintptr(0), uintptr(8)
			if start > w {
				lo = start - w
			}
			if end < w+8 {
				hi = end - w
			}
			mask := uint8(uint16(1)<<hi-1) &^ uint8(uint16(1)<<lo-1)
			i := (w / 8) % pageWords
			x := pg.w[i]
			if x == nil {
				x = h.newWord(p, mask, atomic)
				pg.w[i] = x
			}
			h.accessWord(x, mask, kind, s, stk, v, now, &found)
		}
		if whole && kind&accWrite != 0 {
			h.merge(pg, pbeg, now)
		}
	}
	return found
}

// word is the shadow of the word at w, made if new; p points into the
// same variable (the access's start), to pin it. Lock held.
//
//go:norace
func (h *hbState) word(p unsafe.Pointer, w uintptr, mask uint8, atomic bool) *varState {
	slot := &h.recent[(w>>3)&uintptr(len(h.recent)-1)]
	if slot.w == w && slot.x != nil {
		return slot.x
	}
	pg := h.page(w / pageBytes)
	if pg.run != nil {
		h.split(pg)
	}
	i := (w / 8) % pageWords
	x := pg.w[i]
	if x == nil {
		x = h.newWord(p, mask, atomic)
		pg.w[i] = x
	}
	slot.w, slot.x = w, x
	return x
}

// lookup is the shadow of the word at w, nil if none. Lock held.
//
//go:norace
func (h *hbState) lookup(w uintptr) *varState {
	if pg := h.pages.get(w / pageBytes); pg != nil {
		if pg.run != nil {
			return pg.run
		}
		return pg.w[(w/8)%pageWords]
	}
	if h.chunkRuns > 0 {
		return h.chunks.get(w / chunkBytes)
	}
	return nil
}

// page is the shadow page number pn, made if new. Lock held.
//
//go:norace
func (h *hbState) page(pn uintptr) *shadowPage {
	if h.lastPage != nil && h.lastPN == pn {
		return h.lastPage
	}
	pg := h.pages.get(pn)
	if pg == nil && h.chunkRuns > 0 {
		h.splitChunk(pn / chunkPages)
		pg = h.pages.get(pn)
	}
	if pg == nil {
		pg = h.newPage()
		h.pages.put(pn, pg)
	}
	h.lastPN, h.lastPage = pn, pg
	return pg
}

// newWord is a new shadow word whose first access has mask and
// atomicity; p points into its variable, to pin it. Lock held.
//
//go:norace
func (h *hbState) newWord(p unsafe.Pointer, mask uint8, atomic bool) *varState {
	if len(h.slab) == 0 {
		h.newSlab()
	}
	x := &h.slab[0]
	h.slab = h.slab[1:]
	*x = varState{c: cell{mask: mask, atomic: atomic}}
	// access left out the caller's own stack; with stack bounds
	// unknown, p may be on it, and a heap word must not point there.
	if stackBoundsOK {
		x.pin = p
	}
	h.words++
	return x
}

// accessWord is check on one word, x. Lock held.
//
//go:norace
func (h *hbState) accessWord(x *varState, mask, kind uint8, s *Site, stk []uintptr, v vclock, now epoch, found **raceFinds) {
	atomic := kind&accAtomic != 0
	// The common case: one cell, this access's mask and atomicity.
	if len(x.more) == 0 && x.c.mask == mask && x.c.atomic == atomic {
		c := &x.c
		// FastTrack's fast path: the same access in the same epoch was
		// checked already.
		if kind&accWrite != 0 {
			if c.w == now {
				return
			}
		} else if c.r == now || c.rvc != nil && c.rvc.get(now.id()) == now.clock() {
			return
		}
		if f, ok := c.check(kind, v); ok {
			addRace(found, f)
		}
		c.update(kind, now, v, s, stk)
		return
	}
	x.accessCells(mask, kind, s, stk, v, now, found)
}

// accessCells is accessWord on a word whose accesses do not all share
// one mask and atomicity: apart, so that the common case's frame stays
// small (a goroutine's stack grows, by copying, at a deep first frame).
// Lock held.
//
//go:noinline
//go:norace
func (x *varState) accessCells(mask, kind uint8, s *Site, stk []uintptr, v vclock, now epoch, found **raceFinds) {
	atomic := kind&accAtomic != 0
	var mine *cell
	// The cells are worked on in arrays on the stack, and written back
	// into x's own memory where it fits: a word of mixed accesses (a
	// header's fields packed into a uint64) is accessed again and
	// again, and allocating on each access costs more than the check.
	// No append(s, t...): under -race its slicecopy reports to Go's
	// detector (detector_vclock.go, grow).
	var allMem, outMem [4]cell
	all := allMem[:0]
	if 1+len(x.more) > len(allMem) {
		all = make([]cell, 0, 1+len(x.more))
	}
	all = append(all, x.c)
	for _, c := range x.more {
		all = append(all, c)
	}
	out := outMem[:0]
	if len(all)+1 > len(outMem) {
		out = make([]cell, 0, len(all)+1)
	}
	for i := range all {
		c := &all[i]
		if c.mask&mask == 0 {
			out = append(out, *c)
			continue
		}
		checked := !(atomic && c.atomic)
		raced := false
		if checked {
			var f raceFoundAt
			if f, raced = c.check(kind, v); raced {
				addRace(found, f)
			}
		}
		if c.mask == mask && c.atomic == atomic {
			out = append(out, *c)
			continue
		}
		// A write that every access of a cell inside its mask happened
		// before supersedes the cell: whatever is concurrent with the
		// dropped accesses and comes later is concurrent with this one.
		if kind&accWrite != 0 && checked && !raced && c.mask&^mask == 0 {
			continue
		}
		out = append(out, *c)
	}
	for i := range out {
		if out[i].mask == mask && out[i].atomic == atomic {
			mine = &out[i]
			break
		}
	}
	if mine == nil {
		out = append(out, cell{mask: mask, atomic: atomic})
		mine = &out[len(out)-1]
	}
	mine.update(kind, now, v, s, stk)
	x.c = out[0]
	n := len(out) - 1
	switch {
	case n == 0:
		// Kept for the word's next mixed access, emptied of what the
		// cells point to.
		clear(x.more[:cap(x.more)])
		x.more = x.more[:0]
	case cap(x.more) >= n:
		x.more = x.more[:n]
		for i := 0; i < n; i++ {
			x.more[i] = out[1+i]
		}
	default:
		more := make([]cell, n, max(n, 2))
		for i := 0; i < n; i++ {
			more[i] = out[1+i]
		}
		x.more = more
	}
}

// check looks for an earlier access in c that conflicts with an access
// of kind by the goroutine whose clock is v and that v does not order,
// and returns the first one found.
//
//go:norace
func (c *cell) check(kind uint8, v vclock) (found raceFoundAt, raced bool) {
	atomic := kind&accAtomic != 0
	if atomic && c.atomic {
		return
	}
	ck := accRead
	if c.atomic {
		ck |= accAtomic
	}
	if c.w.clock() != 0 && !c.w.before(v) {
		found = raceFoundAt{prev: c.w, prevKind: ck | accWrite, prevSite: c.wsite}
		if c.det != nil {
			found.prevStack = c.det.w
		}
		return found, true
	}
	if kind&accWrite == 0 {
		return
	}
	if c.rvc != nil {
		for id, clk := range c.rvc {
			if clk != 0 && clk > v.get(id) {
				found = raceFoundAt{prev: mkEpoch(id, clk), prevKind: ck}
				if id < len(c.rsites) {
					found.prevSite = c.rsites[id]
				}
				if c.det != nil && id < len(c.det.rs) {
					found.prevStack = c.det.rs[id]
				}
				return found, true
			}
		}
		return
	}
	if c.r.clock() != 0 && !c.r.before(v) {
		found = raceFoundAt{prev: c.r, prevKind: ck, prevSite: c.rsite}
		if c.det != nil {
			found.prevStack = c.det.r
		}
		return found, true
	}
	return
}

// update records an access of kind at epoch now in c.
//
//go:norace
func (c *cell) update(kind uint8, now epoch, v vclock, s *Site, stk []uintptr) {
	if stk != nil && c.det == nil {
		c.det = &cellDetail{}
	}
	if kind&accWrite != 0 {
		c.w, c.wsite = now, s
		c.r, c.rsite, c.rvc, c.rsites = 0, nil, nil, nil
		if c.det != nil {
			c.det.w, c.det.r, c.det.rs = stk, nil, nil
		}
		return
	}
	id := now.id()
	switch {
	case c.rvc != nil:
		c.rvc.set(id, now.clock())
		c.setRead(id, s, stk)
	case c.r.clock() == 0 || c.r.before(v):
		c.r, c.rsite = now, s
		if c.det != nil {
			c.det.r = stk
		}
	default:
		// Concurrent reads: keep both (FastTrack's read-shared).
		old := c.r.id()
		c.rvc.set(old, c.r.clock())
		var ostk []uintptr
		if c.det != nil {
			ostk = c.det.r
		}
		c.setRead(old, c.rsite, ostk)
		c.rvc.set(id, now.clock())
		c.setRead(id, s, stk)
		c.r, c.rsite = 0, nil
	}
}

//go:norace
func (c *cell) setRead(id int, s *Site, stk []uintptr) {
	if len(c.rsites) <= id {
		// Grown by a loop: see vclock.grow.
		var x []*Site
		if id < cap(c.rsites) {
			x = c.rsites[:id+1]
			for i := len(c.rsites); i <= id; i++ {
				x[i] = nil
			}
		} else {
			x = make([]*Site, id+1, max(id+1, 2*cap(c.rsites), 8))
			for i, s := range c.rsites {
				x[i] = s
			}
		}
		c.rsites = x
	}
	c.rsites[id] = s
	if c.det != nil {
		for len(c.det.rs) <= id {
			c.det.rs = append(c.det.rs, nil)
		}
		c.det.rs[id] = stk
	}
}
