package runtime

import (
	"unsafe"
)

// The happens-before race detector: FastTrack (Flanagan and Freund, PLDI
// 2009) over the accesses the rewriter instruments. Every goroutine of
// the execution has a vector clock; every synchronization Go defines
// (detector_edges.go) moves clocks between goroutines through the sync object;
// every shared variable remembers the epoch of its last write and of its
// last read (a full read clock only while reads are concurrent). An
// access that is not ordered after a conflicting earlier one is a race.
//
// The state lives on the execution and is dropped with it. Positions of
// earlier accesses are recorded only in detailed executions (runtime.Callers
// at every access would multiply the cost of an access several times): a
// race found in a fast execution names the earlier access's goroutine, and
// the detailed re-run of its schedule, which writes the trace, names its
// position too.

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
// scheduling points.
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

// hbState is an execution's detector state.
type hbState struct {
	vcs   []vclock // by goroutine id
	vars  rmap[uintptr, *varState]
	syncs rmap[unsafe.Pointer, vclock]
	chans rmap[unsafe.Pointer, *chanHB]
	// race is the first race found, reported when the execution ends
	// (racesReport).
	race *bug
}

// varState is FastTrack's shadow of one variable.
type varState struct {
	w, r epoch
	// rvc holds the clocks of concurrent reads (FastTrack's read-shared
	// state), nil while reads are totally ordered.
	rvc vclock
	// pcs of the accesses of w, r and rvc's entries, in detailed mode.
	wpc, rpc uintptr
	rpcs     []uintptr
}

// vc returns g's clock, creating it for a goroutine the detector has not
// seen. An adopted goroutine inherits its parent's clock (a subtest started
// through Run) or, when its parent is unknown (started by uncontrolled
// code), every clock, so that what we cannot see creates no false race.
// Lock held.
//
//go:norace
func (e *execution) vc(g *goroutine) *vclock {
	h := &e.hb
	for len(h.vcs) <= g.id {
		h.vcs = append(h.vcs, nil)
	}
	v := &h.vcs[g.id]
	if *v == nil {
		switch {
		case !g.adopted:
			// A goroutine of the execution gets its parent's clock from
			// hbFork (or hbForkFrom), at its creation.
		case g.parent >= 0 && g.parent < len(h.vcs) && h.vcs[g.parent] != nil:
			v.join(h.vcs[g.parent])
		default:
			for _, w := range h.vcs {
				v.join(w)
			}
		}
		v.set(g.id, v.get(g.id)+1)
	}
	return v
}

// tick starts a new epoch of g, after it released its clock.
//
//go:norace
func (e *execution) tick(g *goroutine) {
	v := e.vc(g)
	v.set(g.id, v.get(g.id)+1)
}

// hbOn reports whether the detector runs.
//
//go:norace
func (e *execution) hbOn() bool { return e.set.races != racesOff }

// access checks a read or write by the token holder at p.
//
//go:norace
func (e *execution) access(p unsafe.Pointer, write bool) {
	if !e.hbOn() || p == nil {
		return
	}
	me := e.cur.Load()
	if me == nil {
		return
	}
	var pc uintptr
	if e.set.detailed {
		pc = accessPC()
	}
	e.mu.Lock()
	if e.over || e.aborting {
		e.mu.Unlock()
		return
	}
	h := &e.hb
	x := h.vars.get(uintptr(p))
	if x == nil {
		x = &varState{}
		h.vars.put(uintptr(p), x)
	}
	v := *e.vc(me)
	now := mkEpoch(me.id, v.get(me.id))
	var prev epoch
	var prevPC uintptr
	prevWrite := true
	if write {
		switch {
		case x.w == now:
			e.mu.Unlock()
			return
		case !x.w.before(v):
			prev, prevPC = x.w, x.wpc
		case x.rvc != nil:
			for id, c := range x.rvc {
				if c > v.get(id) {
					prev, prevWrite = mkEpoch(id, c), false
					if id < len(x.rpcs) {
						prevPC = x.rpcs[id]
					}
					break
				}
			}
		case !x.r.before(v):
			prev, prevPC, prevWrite = x.r, x.rpc, false
		}
		x.w, x.wpc = now, pc
		x.r, x.rpc, x.rvc, x.rpcs = 0, 0, nil, nil
	} else {
		if x.r == now {
			e.mu.Unlock()
			return
		}
		if !x.w.before(v) {
			prev, prevPC = x.w, x.wpc
		}
		switch {
		case x.rvc != nil:
			x.rvc.set(me.id, now.clock())
			x.setRPC(me.id, pc)
		case x.r.before(v):
			x.r, x.rpc = now, pc
		default:
			// Concurrent reads: keep both (FastTrack's read-shared).
			x.rvc.set(x.r.id(), x.r.clock())
			x.setRPC(x.r.id(), x.rpc)
			x.rvc.set(me.id, now.clock())
			x.setRPC(me.id, pc)
			x.r, x.rpc = 0, 0
		}
	}
	if prev.clock() != 0 {
		e.raceFound(me, p, write, prev, prevWrite, prevPC)
		return
	}
	e.mu.Unlock()
}

//go:norace
func (x *varState) setRPC(id int, pc uintptr) {
	if pc == 0 && x.rpcs == nil {
		return
	}
	for len(x.rpcs) <= id {
		x.rpcs = append(x.rpcs, 0)
	}
	x.rpcs[id] = pc
}

// raceRead and raceWrite: an access of size bytes at p; size 0 means the
// whole object p identifies (a map). Variables are identified by their
// address: an access to a field and one to the whole struct at the same
// address are one variable, a field at another offset is another.
//
//go:norace
func (e *execution) raceRead(p unsafe.Pointer, size uintptr) { e.access(p, false) }

//go:norace
func (e *execution) raceWrite(p unsafe.Pointer, size uintptr) { e.access(p, true) }
