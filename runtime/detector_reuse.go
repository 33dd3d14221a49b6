package runtime

import "unsafe"

// Executions run one after the other, thousands per test. The detector's
// state of one (its maps, shadow words and clocks) is emptied when it
// ends and kept for the next, instead of being made anew: for a small
// program, making it cost more than checking its accesses. State that
// grew large is dropped instead, so that one big execution does not make
// every later one pay for clearing it.

// hbSpare is the emptied state of the last execution that ran the
// detector.
type hbSpare struct {
	pages  rmap[uintptr, *shadowPage]
	chunks rmap[uintptr, *varState]
	// freePages are emptied shadow pages; pageListMem is the memory of
	// hbState.pageList.
	freePages   []*shadowPage
	pageListMem []*shadowPage
	syncs       rmap[unsafe.Pointer, vclock]
	chans       rmap[unsafe.Pointer, *chanHB]
	slabs       [][]varState
	clocks      []vclock
	// vcs and slabList are the memory of hbState.vcs and hbState.slabs.
	vcs      []vclock
	slabList [][]varState
}

var (
	spareMu rtMutex
	spare   *hbSpare
)

// The most shadow words, and clocks, an execution's state may have to be
// kept.
const (
	spareMaxWords  = 1 << 14
	spareMaxClocks = 1 << 10
)

// recycle empties the detector state of an execution that is over, and
// keeps it for the next execution. The races found stay (its report).
// Lock held.
//
//go:norace
func (d *detector) recycle() {
	h := &d.hb
	if d.mode == racesOff {
		return
	}
	keep := h.words <= spareMaxWords
	var s *hbSpare
	if keep {
		s = h.spare
		if s == nil {
			s = &hbSpare{}
		}
		s.pages, s.chunks, s.syncs, s.chans = h.pages, h.chunks, h.syncs, h.chans
		for _, pg := range h.pageList {
			*pg = shadowPage{}
		}
		s.freePages = append(h.freePages, h.pageList...)
		s.pageListMem = h.pageList[:0]
		// The kept words would pin this execution's memory until reused.
		for _, sl := range h.slabs {
			for i := range sl {
				sl[i].pin = nil
			}
		}
		s.slabs = append(h.free, h.slabs...)
		s.slabList = h.slabs[:0]
		s.clocks = h.clocks
		add := func(v vclock) {
			if v != nil && len(s.clocks) < spareMaxClocks {
				s.clocks = append(s.clocks, v[:0])
			}
		}
		for i, v := range h.vcs {
			add(v)
			h.vcs[i] = nil
		}
		s.vcs = h.vcs[:0]
		s.syncs.each(func(_ unsafe.Pointer, v vclock) { add(v) })
		s.pages.clear()
		s.chunks.clear()
		s.syncs.clear()
		s.chans.clear()
	}
	// Whatever still refers to the execution finds empty state, never
	// the spare's.
	*h = hbState{race: h.race, races: h.races}
	if keep {
		spareMu.Lock()
		spare = s
		spareMu.Unlock()
	}
}

// reuse gives a new execution whose detector runs the state the last
// one left.
//
//go:norace
func (d *detector) reuse() {
	if d.mode == racesOff {
		return
	}
	spareMu.Lock()
	s := spare
	spare = nil
	spareMu.Unlock()
	if s == nil {
		return
	}
	h := &d.hb
	h.pages, h.chunks, h.syncs, h.chans = s.pages, s.chunks, s.syncs, s.chans
	h.freePages, h.pageList = s.freePages, s.pageListMem
	h.free, h.clocks = s.slabs, s.clocks
	h.vcs, h.slabs = s.vcs, s.slabList
	*s = hbSpare{}
	h.spare = s
}

// newSlab makes the next slab of shadow words: a kept one, or a new one
// of a few more words than the last (most executions touch few words).
//
//go:norace
func (h *hbState) newSlab() {
	if n := len(h.free); n > 0 {
		h.slab = h.free[n-1]
		h.free = h.free[:n-1]
	} else {
		h.slabSize = min(max(2*h.slabSize, 4), 64)
		h.slab = make([]varState, h.slabSize)
	}
	h.slabs = append(h.slabs, h.slab)
}

// newPage is an empty shadow page: a kept one, or a new one.
//
//go:norace
func (h *hbState) newPage() *shadowPage {
	var pg *shadowPage
	if n := len(h.freePages); n > 0 {
		pg = h.freePages[n-1]
		h.freePages = h.freePages[:n-1]
	} else {
		pg = new(shadowPage)
	}
	h.pageList = append(h.pageList, pg)
	return pg
}

// newClock is an empty clock, with memory kept from an earlier execution
// if there is some.
//
//go:norace
func (h *hbState) newClock() vclock {
	if n := len(h.clocks); n > 0 {
		v := h.clocks[n-1]
		h.clocks = h.clocks[:n-1]
		return v
	}
	return make(vclock, 0, 8)
}
