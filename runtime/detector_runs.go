package runtime

import "unsafe"

// Runs: a page whose words share one history has one shadow word for
// them all.
//
// A program's large accesses (copy() into a buffer, append of a slice, a
// large array assigned) touch every word of a range the same way, and
// FastTrack's state of each of those words goes through the same
// transitions: checking and updating each word is the same work done
// pageWords times, and a word first touched costs a shadow word of its
// own (bigcache's tests spend most of their time there). A page that an
// access covers whole, and that has no shadow yet, gets one shadow word,
// its run, standing for each of its words; a whole-page access of a run
// page is one check and one update, and finds exactly the races the
// per-word check would (each word would find the same one, and an
// execution lists a race once).
//
// A page stays a run only while every access to it covers it whole. An
// access to part of it splits the run into a shadow word per word, each
// a copy of the run's state; a write that covers a split page whole and
// leaves each word with the same state (no race: FastTrack's write
// supersedes what was before) merges them back.

// The same holds a level up: an access that covers a chunk (chunkPages
// pages) with no shadow yet makes one run for the chunk, with no page;
// the first access to part of it splits it into a run per page. A copy
// of a megabyte costs 32 checks, not 2,048 pages of runs.

// chunkRun is the run of chunk cn for an access at p that covers it
// whole, made if none of its pages has a shadow yet; nil if one has.
// Lock held.
//
//go:norace
func (h *hbState) chunkRun(cn uintptr, p unsafe.Pointer) *varState {
	if h.chunkRuns > 0 {
		if x := h.chunks.get(cn); x != nil {
			return x
		}
	}
	for pn := cn * chunkPages; pn < (cn+1)*chunkPages; pn++ {
		if h.pages.get(pn) != nil {
			return nil
		}
	}
	x := h.newWord(p, 0xff, false)
	h.chunks.put(cn, x)
	h.chunkRuns++
	return x
}

// splitChunk gives each page of chunk cn, if it is a run, a run of its
// own, a copy of the chunk's. Lock held.
//
//go:norace
func (h *hbState) splitChunk(cn uintptr) {
	r := h.chunks.get(cn)
	if r == nil {
		return
	}
	h.chunks.put(cn, nil)
	h.chunkRuns--
	for pn := cn * chunkPages; pn < (cn+1)*chunkPages; pn++ {
		pg := h.newPage()
		x := h.newWord(r.pin, 0xff, false)
		x.c = r.c.clone()
		pg.run = x
		h.pages.put(pn, pg)
	}
}

// runOf is the run of pg for a whole-page access at p, made if pg has
// no shadow yet; nil if pg is split. Lock held.
//
//go:norace
func (h *hbState) runOf(pg *shadowPage, p unsafe.Pointer) *varState {
	if pg.run != nil {
		return pg.run
	}
	for _, x := range pg.w {
		if x != nil {
			return nil
		}
	}
	// The access covers the page whole, so the page is part of the
	// variable at p, which the run pins.
	pg.run = h.newWord(p, 0xff, false)
	return pg.run
}

// split gives each word of a run page a shadow word of its own, a copy
// of the run's. Lock held.
//
//go:norace
func (h *hbState) split(pg *shadowPage) {
	r := pg.run
	pg.run = nil
	for i := range pg.w {
		x := h.newWord(r.pin, 0xff, false)
		x.c = r.c.clone()
		pg.w[i] = x
	}
}

// merge makes pg, at address pbeg, a run again after a write at epoch
// now covered it whole, if that write left each of its words with one
// and the same state. Lock held.
//
//go:norace
func (h *hbState) merge(pg *shadowPage, pbeg uintptr, now epoch) {
	for _, x := range pg.w {
		if x == nil || len(x.more) != 0 || x.c.mask != 0xff || x.c.atomic || x.c.w != now || x.c.r != 0 || x.c.rvc != nil {
			return
		}
	}
	// Each word's last write is this goroutine's at epoch now, and no
	// read follows it, so their states are equal but for which of the
	// epoch's writes they name (a word written before in this epoch
	// keeps that write's site: FastTrack skips a write it has seen in
	// the epoch): keep the first. A race report may name another of the
	// epoch's writes than the per-word shadow would, never another
	// goroutine's or epoch's.
	pg.run = pg.w[0]
	pg.w = [pageWords]*varState{}
	// recent must not lead a later access to a word's old shadow.
	for i := range h.recent {
		if w := h.recent[i].w; w >= pbeg && w < pbeg+pageBytes {
			h.recent[i].x = nil
		}
	}
}

// clone is a copy of c that shares nothing c's updates change.
//
//go:norace
func (c cell) clone() cell {
	d := c
	if c.rvc != nil {
		d.rvc = make(vclock, len(c.rvc))
		for i, v := range c.rvc {
			d.rvc[i] = v
		}
	}
	if c.rsites != nil {
		d.rsites = make([]*Site, len(c.rsites))
		for i, s := range c.rsites {
			d.rsites[i] = s
		}
	}
	if c.det != nil {
		det := *c.det
		if c.det.rs != nil {
			det.rs = make([][]uintptr, len(c.det.rs))
			for i, s := range c.det.rs {
				det.rs[i] = s
			}
		}
		d.det = &det
	}
	return d
}
