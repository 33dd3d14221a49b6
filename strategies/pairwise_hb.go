package strategies

// The happens-before extension of pairwise incremental checking (Parízek
// and Kliber, "Exploring relevant interleavings of multiple threads"): a
// dynamic happens-before relation over the execution prefix up to Gi's
// first step in the fragment gives the list E of the relevant events of
// third goroutines (neither Gi nor Gj) not guaranteed to happen before it;
// for each event the search explores it before the fragment and after it,
// keeping each goroutine's events in program order. The events a goroutine
// puts after the fragment are then a suffix of its events in E, so a
// choice of "after" events is one cut per goroutine, and the extension
// explores every combination of cuts (every subset the paper's explored
// set contains), fewest moved events first.
//
// The relation is Lamport's, with vector clocks over the synchronization
// the events say (strategies.Event): program order; a goroutine's first
// step after the step that created it; an unlock before the next lock or
// read lock of its mutex, a read unlock before the next lock; a send or a
// close before the receives of its channel; a WaitGroup's Add and Done
// before its Waits; a Once's steps in turn. Memory accesses, atomics,
// select, Cond's wake-ups and uncontrolled code order nothing here: a
// missing edge only adds events to E (their variants are explored, and
// the ones no schedule can realize run as the base execution), an edge too
// many could drop a variant the paper explores; the relation has none
// beyond Go's memory model except Add (counted as Done: the events cannot
// tell them apart). The relevant events are the synchronizations
// themselves (the paper's lock acquire, release and join; for Go also
// channel operations, WaitGroup, Once and Cond) on objects that at least
// two goroutines of the execution synchronize on: the artifact leaves out
// thread-local objects likewise.

import (
	"fmt"
	"math"
)

// hbObj is a synchronization object's clocks: w what an acquire of it
// joins (unlocks, sends, Adds...), r what a lock joins besides (read
// unlocks), m the part of w a step must wait for (not a lock's).
type hbObj struct{ w, r, m []uint32 }

// hbStep is a step of the execution with a synchronization on it.
type hbStep struct {
	g     int
	local uint32 // its index among g's steps, from 1
	node  int    // the node it was chosen at
	a0    int32  // its synchronizations: hbTracker.acc[a0:a1]
	a1    int32
}

// hbTracker computes the vector clocks of one execution.
type hbTracker struct {
	vc [][]uint32 // by goroutine id: its clock after its last step
	// mvc is the same with the edges a step cannot do without only: its
	// creation, a receive's send, a Wait's Done, a Once's first call;
	// not mutual exclusion, which another schedule orders otherwise.
	mvc   [][]uint32
	seen  []bool
	last  int // the goroutine of the previous goroutine point, -1
	objs  map[uintptr]*hbObj
	steps []hbStep
	acc   []Access
	// nodeVC[k] is the must clock (mvc) of the step taken at node k
	// (nil for the points that choose no goroutine), until the start.
	nodeVC [][]uint32
	// start is the node where Gi took its first step in the fragment,
	// -1 before; startVC its clock just before.
	start   int
	startVC []uint32
}

func (h *hbTracker) reset() {
	h.vc, h.mvc, h.seen, h.last, h.steps, h.acc = h.vc[:0], h.mvc[:0], h.seen[:0], -1, h.steps[:0], h.acc[:0]
	h.objs = map[uintptr]*hbObj{}
	h.nodeVC = h.nodeVC[:0]
	h.start, h.startVC = -1, nil
}

// syncOp reports the operations that synchronize (the relevant events).
func syncOp(op AccessOp) bool {
	switch op {
	case OpSend, OpRecv, OpClose, OpSelect, OpLock, OpUnlock, OpRLock, OpRUnlock,
		OpWGAdd, OpWGWait, OpOnce, OpCondWait, OpSignal, OpBroadcast:
		return true
	}
	return false
}

// point notes the goroutines of a goroutine point: one not seen before
// was created by the previous step, whose clock it starts from.
func (h *hbTracker) point(pt *Point) {
	for _, id := range pt.Choices {
		if id < 0 {
			continue
		}
		for len(h.seen) <= id {
			h.seen = append(h.seen, false)
			h.vc = append(h.vc, nil)
			h.mvc = append(h.mvc, nil)
		}
		if !h.seen[id] {
			h.seen[id] = true
			if h.last >= 0 && h.last != id {
				h.vc[id] = append([]uint32(nil), h.vc[h.last]...)
				h.mvc[id] = append([]uint32(nil), h.mvc[h.last]...)
			}
		}
	}
}

// step applies the step goroutine g takes at node with event ev.
func (h *hbTracker) step(g, node int, ev *Event) {
	if g < 0 || g >= len(h.vc) {
		return
	}
	h.last = g
	c, m := h.vc[g], h.mvc[g]
	for len(c) <= g {
		c = append(c, 0)
	}
	for len(m) <= g {
		m = append(m, 0)
	}
	c[g]++
	m[g] = c[g]
	a0 := int32(len(h.acc))
	if ev != nil {
		for _, a := range ev.Acc {
			if !syncOp(a.Op) {
				continue
			}
			h.acc = append(h.acc, a)
			o := h.objs[a.Obj]
			if o == nil {
				o = &hbObj{}
				h.objs[a.Obj] = o
			}
			switch a.Op {
			case OpLock:
				c = joinClock(joinClock(c, o.w), o.r)
			case OpRLock:
				c = joinClock(c, o.w)
			case OpRecv, OpWGWait, OpOnce:
				c = joinClock(c, o.w)
				m = joinClock(m, o.m)
			}
		}
		for _, a := range h.acc[a0:] {
			o := h.objs[a.Obj]
			switch a.Op {
			case OpUnlock:
				o.w = joinClock(o.w, c)
			case OpSend, OpClose, OpWGAdd, OpOnce:
				o.w = joinClock(o.w, c)
				o.m = joinClock(o.m, m)
			case OpRUnlock:
				o.r = joinClock(o.r, c)
			}
		}
	}
	h.vc[g], h.mvc[g] = c, m
	if h.start < 0 {
		for len(h.nodeVC) <= node {
			h.nodeVC = append(h.nodeVC, nil)
		}
		h.nodeVC[node] = append([]uint32(nil), m...)
	}
	if a1 := int32(len(h.acc)); a1 > a0 {
		h.steps = append(h.steps, hbStep{g: g, local: c[g], node: node, a0: a0, a1: a1})
	}
}

// begin records that Gi takes its first step in the fragment at node.
func (h *hbTracker) begin(gi, node int) {
	h.start = node
	if gi >= 0 && gi < len(h.vc) {
		h.startVC = append([]uint32(nil), h.vc[gi]...)
	}
}

// hbEvent is a relevant event: the node it was chosen at, its index
// among its goroutine's steps, and whether it may wait for another
// goroutine (a lock, a receive, a Wait...) rather than only release.
type hbEvent struct {
	node  int
	local uint32
	waits bool
}

// waitOp reports the synchronizations that can wait for another
// goroutine: moving one after the fragment moves an acquisition, where
// moving a release alone keeps something held across it.
func waitOp(op AccessOp) bool {
	switch op {
	case OpLock, OpRLock, OpRecv, OpSend, OpSelect, OpWGWait, OpCondWait, OpOnce:
		return true
	}
	return false
}

// cuts returns, for each third goroutine with relevant events not
// guaranteed to happen before Gi's start, those events in program order.
func (h *hbTracker) cuts(gi, gj int) map[int][]hbEvent {
	if h.start < 0 {
		return nil
	}
	// Objects at least two goroutines synchronize on.
	first := map[uintptr]int{}
	shared := map[uintptr]bool{}
	for _, s := range h.steps {
		for _, a := range h.acc[s.a0:s.a1] {
			if g, ok := first[a.Obj]; !ok {
				first[a.Obj] = s.g
			} else if g != s.g {
				shared[a.Obj] = true
			}
		}
	}
	out := map[int][]hbEvent{}
	for _, s := range h.steps {
		if s.node >= h.start || s.g == gi || s.g == gj {
			continue
		}
		if s.g < len(h.startVC) && h.startVC[s.g] >= s.local {
			continue // happens before the start
		}
		rel, waits := false, false
		for _, a := range h.acc[s.a0:s.a1] {
			rel = rel || shared[a.Obj]
			waits = waits || waitOp(a.Op)
		}
		if rel {
			out[s.g] = append(out[s.g], hbEvent{s.node, s.local, waits})
		}
	}
	return out
}

// hbGen enumerates the combinations of cuts after one start of the
// fragment: digit i picks goroutine gs[i]'s cut among its candidates
// (0: none moved), its events in E from the cut on going after the
// fragment. A goroutine's candidates are its events that wait (lock,
// receive...) from the last to the first, then the others likewise:
// moving a release alone, which only keeps a lock held across the
// fragment, comes after every acquisition. The order, since a budget of
// schedules may end the search before the last of them:
//
//  1. the fragment starting earlier, past the events of E scheduled last:
//     for each event of E, from the last to the first, every event of E
//     from there on after the fragment (one cut in time, |E| of them);
//  2. every other combination, by the sum of its digits (the weight: one
//     goroutine's last acquisition first), then in colexicographic order.
//
// The base search is the one with every digit 0.
type hbGen struct {
	pair  pairwiseP
	base  []pairwiseNode // the nodes up to and including the start
	vcs   [][]uint32     // the clocks of their steps (nil: not a goroutine's)
	start int
	gs    []int
	ev    [][]hbEvent // by goroutine: its cut candidates, in order
	d     []int
	total int // combinations, saturated
	index int // of the current one, from 1
	// family are the combinations of the first kind, fi the next one;
	// w is the enumeration of the second kind, which skips them.
	family [][]int
	fi     int
	w      []int
	inFam  map[string]bool
	// one: tests: only the combinations that move one goroutine's
	// events (what gosct's extension explored before).
	one bool
}

func newHBGen(pair pairwiseP, nodes []pairwiseNode, h *hbTracker, cuts map[int][]hbEvent) *hbGen {
	g := &hbGen{pair: pair, start: h.start, total: 1}
	for id := range cuts {
		g.gs = append(g.gs, id)
	}
	sortInts(g.gs)
	for _, id := range g.gs {
		evs := cuts[id]
		var cand []hbEvent
		for _, w := range []bool{true, false} {
			for k := len(evs) - 1; k >= 0; k-- {
				if evs[k].waits == w {
					cand = append(cand, evs[k])
				}
			}
		}
		g.ev = append(g.ev, cand)
		if n := len(cuts[id]) + 1; g.total > math.MaxInt32/n {
			g.total = math.MaxInt32
		} else {
			g.total *= n
		}
	}
	g.total--
	g.base = make([]pairwiseNode, g.start+1)
	g.vcs = make([][]uint32, g.start)
	for k := range g.base {
		c := nodes[k]
		c.alts, c.done = []int{c.alts[c.done-1]}, 1
		g.base[k] = c
		if k < g.start && k < len(h.nodeVC) {
			g.vcs[k] = h.nodeVC[k]
		}
	}
	g.d = make([]int, len(g.gs))
	g.w = make([]int, len(g.gs))
	g.inFam = map[string]bool{}
	var at []int
	for _, evs := range cuts {
		for _, e := range evs {
			at = append(at, e.node)
		}
	}
	sortInts(at)
	for k := len(at) - 1; k >= 0; k-- {
		if k+1 < len(at) && at[k] == at[k+1] {
			continue
		}
		v := make([]int, len(g.gs))
		for i, cand := range g.ev {
			// The goroutine's first event at or after the cut,
			// as a candidate.
			first := -1
			for j, e := range cand {
				if e.node >= at[k] && (first < 0 || e.node < cand[first].node) {
					first = j
				}
			}
			v[i] = first + 1
		}
		if key := fmt.Sprint(v); !g.inFam[key] {
			g.inFam[key] = true
			g.family = append(g.family, v)
		}
	}
	return g
}

// weight orders the current combination among those of other starts:
// 0 for the first kind, else the sum of its digits.
func (g *hbGen) weight() int {
	if g.fi <= len(g.family) && g.inFam[fmt.Sprint(g.d)] {
		return 0
	}
	w := 0
	for _, x := range g.d {
		w += x
	}
	return w
}

// next moves to the next combination; false when there is none.
func (g *hbGen) next() bool {
	for g.nextAny() {
		if !g.one || moves(g.d) == 1 {
			return true
		}
	}
	return false
}

func moves(d []int) int {
	n := 0
	for _, x := range d {
		if x > 0 {
			n++
		}
	}
	return n
}

func (g *hbGen) nextAny() bool {
	if g.fi < len(g.family) {
		copy(g.d, g.family[g.fi])
		g.fi++
		g.index++
		return true
	}
	g.fi = len(g.family) + 1
	for g.nextByWeight() {
		if !g.inFam[fmt.Sprint(g.w)] {
			copy(g.d, g.w)
			g.index++
			return true
		}
	}
	return false
}

// nextByWeight moves w to the next vector by weight.
func (g *hbGen) nextByWeight() bool {
	sum := 0
	for _, x := range g.w {
		sum += x
	}
	// The next vector of the same sum: raise the lowest digit j that
	// can rise and has mass below it, and refill below from the left.
	below := 0
	for j := range g.w {
		if below > 0 && g.w[j] < len(g.ev[j]) {
			g.w[j]++
			g.fill(j, below-1)
			return true
		}
		below += g.w[j]
	}
	// The first vector of sum+1.
	most := 0
	for _, e := range g.ev {
		most += len(e)
	}
	if sum+1 > most {
		return false
	}
	g.fill(len(g.w), sum+1)
	return true
}

// fill puts mass into digits [0, j) of w greedily from the left.
func (g *hbGen) fill(j, mass int) {
	for i := 0; i < j; i++ {
		g.w[i] = min(mass, len(g.ev[i]))
		mass -= g.w[i]
	}
}

// prefix is the schedule of the current combination: the start's prefix
// without the steps that must come after a moved event (the moved
// goroutines' from their cut on, and those created by them or waiting
// for them: the must clocks), nor the select cases and draws of those
// steps; the others' steps in the same order. The goroutines whose steps were left out wait from there until
// Gi leaves the fragment.
func (g *hbGen) prefix() (nodes []pairwiseNode, held map[int]bool) {
	var moved []int // pairs of goroutine, local index of its cut
	for i, id := range g.gs {
		if g.d[i] > 0 {
			moved = append(moved, id, int(g.ev[i][g.d[i]-1].local))
		}
	}
	after := func(vc []uint32) bool {
		for i := 0; i < len(moved); i += 2 {
			if t := moved[i]; t < len(vc) && int(vc[t]) >= moved[i+1] {
				return true
			}
		}
		return false
	}
	held = map[int]bool{}
	drop := false
	for k, n := range g.base {
		if n.kind == Goroutine {
			drop = k < g.start && after(g.vcs[k])
			if drop {
				held[n.alts[0]] = true
			}
		}
		// A select's case or a draw belongs to the step of the
		// goroutine point before it.
		if !drop {
			nodes = append(nodes, n)
		}
	}
	return nodes, held
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
