package runtime

// weaken holds the detector's references to the program's memory by weak
// pointer for a collection the program asked for (collect.go): the
// clocks of sync objects and channels, and the pins of shadow words
// (varState.pin). What a collected variable leaves is forgotten: its
// shadow words go, so the variable that takes its address starts with
// none, as Go's detector, told of the allocation, starts it. Lock held.
//
//go:norace
func (h *hbState) weaken(w *weakening) {
	weakenTable(w, &h.syncs)
	weakenTable(w, &h.chans)
	// Many words pin one variable (a run's copies, the words of a
	// struct): one weak reference each.
	refs := map[uintptr]weakRef{}
	type pinned struct {
		x    *varState
		addr uintptr
	}
	var ps []pinned
	for _, sl := range h.slabs {
		for i := range sl {
			x := &sl[i]
			if x.pin == nil {
				continue
			}
			a := uintptr(x.pin)
			if _, ok := refs[a]; !ok {
				refs[a] = weakenRef(x.pin)
			}
			ps = append(ps, pinned{x, a})
			x.pin = nil
		}
	}
	if len(ps) == 0 {
		return
	}
	w.after(func() {
		dead := map[*varState]bool{}
		for _, p := range ps {
			if v := refs[p.addr].value(); v != nil {
				p.x.pin = v
			} else {
				dead[p.x] = true
			}
		}
		if len(dead) > 0 {
			h.forget(dead)
		}
	})
}

// forget drops the shadow words of collected variables. Lock held.
//
//go:norace
func (h *hbState) forget(dead map[*varState]bool) {
	h.pages.each(func(_ uintptr, pg *shadowPage) {
		if pg == nil {
			return
		}
		if pg.run != nil && dead[pg.run] {
			pg.run = nil
			h.words--
		}
		for i, x := range pg.w {
			if x != nil && dead[x] {
				pg.w[i] = nil
				h.words--
			}
		}
	})
	var runs []uintptr
	h.chunks.each(func(cn uintptr, x *varState) {
		if x != nil && dead[x] {
			runs = append(runs, cn)
		}
	})
	for _, cn := range runs {
		h.chunks.put(cn, nil)
		h.chunkRuns--
		h.words--
	}
	// The caches may hold a word forgotten.
	h.recent = [len(h.recent)]struct {
		w uintptr
		x *varState
	}{}
	h.lastPN, h.lastPage = 0, nil
}
