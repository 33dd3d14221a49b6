package strategies

import (
	"fmt"
	"sort"
)

// Pairwise is pairwise incremental checking ("pairwise", after Parízek and Kliber): the
// previous version of the program was checked already, and a change added
// or removed thread-interaction statements in a few fragments of code
// (Fragments, computed from a git diff by `gosct test --since`). Only the
// interleavings that involve a fragment need exploring: for every pair of
// a goroutine Gi that runs a fragment and another goroutine Gj, a
// stateless depth-first search whose only scheduling choices are
//
//   - Gi or Gj, while Gj is the current goroutine and Gi waits at the
//     fragment's entry (the fragment may start at every scheduling point
//     of Gj);
//   - Gi or Gj, while Gi is inside its fragment and Gi is the current
//     goroutine, until Gj has taken over once (Gj may run at every
//     scheduling point inside the fragment: the paper's explored set
//     I(i,j), a start point of Gj times one point of the fragment);
//   - the select cases and small random draws Gi makes inside the fragment.
//
// Everywhere else nothing is preempted: the current goroutine goes on,
// and when it blocks or exits the lowest-numbered enabled goroutine runs.
// Who runs after a goroutine blocks is not a choice either: the order of
// the goroutines other than Gi and Gj is the extension's (below); a
// choice among all the enabled goroutines at every block would multiply
// the search by the goroutines the change does not involve.
//
// The paper's extension for more than two goroutines (pairwise_hb.go):
// when Gi starts a fragment (takes its first step there, which may be long
// after it reached the entry, since it waits there for Gj), vector clocks
// give the synchronizations of third goroutines not guaranteed to happen
// before that step, and the search also explores every combination of
// them put after the fragment, in each goroutine's program order: the
// execution up to the start without the moved events (and what waits for
// them), then the fragment, the moved goroutines held back until Gi has
// left it. Deadlocks over three goroutines or more are found so, also
// when Gi waits for a Gj that only exists once a third goroutine's events
// are done.
//
// The pairs come from the executions themselves: the first execution is
// the non-preemptive schedule, and records the goroutines, their spawn
// sites (Spawner) and which of them were seen inside a fragment; every
// later execution adds the goroutines and fragment runners it sees. A
// goroutine is a fragment runner (a candidate Gi) when it was seen inside
// a fragment or was created by a go statement of Fragments.Spawns. Pairs
// whose Gj comes from a spawn site not yet paired with Gi's go first, so
// that a budget of schedules meets every kind of goroutine early.
//
// Goroutines are told apart by their logical ids (creation order), as the
// paper's artifact tells threads apart by their dynamic ids.
type Pairwise struct {
	frags   []Fragment
	spawns  map[Frame]bool
	loadErr error

	// Goroutines seen, by id: their spawn site and whether any
	// execution saw them inside a fragment.
	spawn  map[int]Frame
	inside map[int]bool

	// The searches, one per pair, take executions in turn (rot, from
	// index ri), so that a budget of schedules reaches every pair;
	// deferred ones (Gj's spawn site met already with Gi, or a later
	// run of the fragment) join when rot runs out.
	rot      []*pairwiseSearch
	ri       int
	cur      *pairwiseSearch
	deferred []*pairwiseSearch
	queued   map[pairwiseP]bool
	met      map[pairwiseMeet]bool
	pair     pairwiseP // the pair of the current search; gi < 0: discovery
	done     int       // pairs whose search is exhausted
	// hbq are the extension's searches, one per start of a fragment
	// that has combinations left, a queue per pair, each by the events
	// its current combination moves (hbGen); the pairs' queues take the
	// extension's turns in turn (from hi); hbTurn: the next execution
	// is the extension's.
	hbq    [][]*pairwiseSearch
	hi     int
	hbTurn bool
	// variantsDone counts the extension's searches exhausted (one per
	// combination of moved events).
	variantsDone int
	started      bool
	finished     bool

	// The search of the current pair: one node per decision of the
	// current execution.
	nodes []pairwiseNode
	depth int

	// Per execution: Gi's position with respect to the fragments.
	giIn     bool // Gi's last known position is inside a fragment
	giEntry  int  // Gi's moves when it entered the fragment it is in
	giMoves  int  // Gi's moves at the current point
	visits   int  // Gi's entries into a fragment so far
	parked   bool // Gi waits at the entry while others run
	begun    bool // Gi has taken its first step in the searched run of the fragment
	switches int  // Gj chosen at a point of Gi inside the fragment, this execution
	// held are the third goroutines the extension holds back until Gi
	// leaves the fragment (or nobody else can run).
	held map[int]bool
	// replayed is how many nodes this execution replays from the
	// search's last one: the extension works only past them (an earlier
	// execution extended the same prefix).
	replayed int
	// tracking: this execution computes the happens-before relation (a
	// pair's own search, not a variant of the extension).
	tracking bool
	hb       hbTracker

	noHB bool // tests: the search without the happens-before extension
	// hbOne: tests: the extension moves one goroutine's events at a time.
	hbOne bool
}

// pairwiseSearch is the depth-first search of one pair: the decisions
// of its last execution.
type pairwiseSearch struct {
	pair  pairwiseP
	nodes []pairwiseNode
	ran   bool
	// variant: the search of one combination of the extension, below
	// its prefix, with held held back; gen enumerates the combinations
	// of one start of the fragment, this search taking them in turn.
	variant bool
	held    map[int]bool
	gen     *hbGen
}

// pairwiseP is one search: Gi's visit-th run of a fragment against Gj.
type pairwiseP struct{ gi, gj, visit int }

// active reports whether Gi is in the run of a fragment the search
// branches in.
func (p *Pairwise) active() bool {
	return p.pair.gi >= 0 && p.giIn && p.visits == p.pair.visit
}

type pairwiseMeet struct {
	gi int
	gj Frame
}

type pairwiseNode struct {
	alts []int // choice values to explore, the first the default
	done int   // alts[:done] explored; alts[done-1] is this execution's
	kind Kind
}

// Spawner is implemented by the runtime's Locator: where each goroutine
// was created. Pairwise tags goroutines with their spawn sites through it.
type Spawner interface {
	// Spawned returns the frame of the go statement that created
	// goroutine id, and false for the test goroutine and goroutines
	// started by uncontrolled code.
	Spawned(id int) (Frame, bool)
}

// NewPairwise returns pairwise incremental checking of the change that
// o.Fragments describes.
func NewPairwise(o Options) *Pairwise {
	p := &Pairwise{
		spawns: map[Frame]bool{},
		spawn:  map[int]Frame{},
		inside: map[int]bool{},
		queued: map[pairwiseP]bool{},
		met:    map[pairwiseMeet]bool{},
		pair:   pairwiseP{-1, -1, 0},
	}
	if o.Fragments == "" {
		p.loadErr = fmt.Errorf("no fragments (run it with gosct test --since REV)")
		return p
	}
	fr, err := ReadFragments(o.Fragments)
	if err != nil {
		p.loadErr = err
		return p
	}
	p.frags = fr.Frags
	for _, s := range fr.Spawns {
		p.spawns[s] = true
	}
	return p
}

func init() {
	register(Info{Name: "pairwise", Summary: "pairwise incremental checking of a change (gosct test --since REV)", Systematic: true, Reads: OptFragments, New: func(o Options) Strategy { return NewPairwise(o) }})
}

// Locates implements Locating: the search needs every goroutine's position.
func (p *Pairwise) Locates() bool { return true }

// Stateless implements Stateless: each pair's search replays a prefix.
func (p *Pairwise) Stateless() bool { return true }

// Wants implements EventUser: the events of a pair's own executions, for
// the happens-before relation.
func (p *Pairwise) Wants() Wants {
	if p.tracking {
		return WantEvents
	}
	return 0
}

// EndExecution implements EventUser; the extension is computed when the
// next execution is prepared.
func (p *Pairwise) EndExecution(End) {}

// NewExecution implements Strategy.
func (p *Pairwise) NewExecution() bool {
	if p.tracking {
		p.extendHB()
	}
	p.depth = 0
	p.giIn, p.giEntry, p.giMoves, p.visits, p.parked = false, 0, 0, 0, false
	p.begun, p.held, p.switches, p.tracking = false, nil, 0, false
	if !p.started {
		p.started = true
		return true // the discovery execution
	}
	// Backtrack within the search of the execution that ended.
	for len(p.nodes) > 0 {
		n := &p.nodes[len(p.nodes)-1]
		if n.done < len(n.alts) {
			break
		}
		p.nodes = p.nodes[:len(p.nodes)-1]
	}
	if q := p.cur; q != nil {
		q.nodes = p.nodes
		switch {
		case q.variant && len(q.nodes) == 0:
			// This combination is done; its start's next one
			// takes its place by the events it moves.
			p.variantsDone++
			p.hbq[p.hi] = p.hbq[p.hi][1:]
			if q.gen.next() {
				q.nodes, q.held = q.gen.prefix()
				p.hbq[p.hi] = byWeight(p.hbq[p.hi], q)
			}
			if len(p.hbq[p.hi]) == 0 {
				p.hbq = append(p.hbq[:p.hi], p.hbq[p.hi+1:]...)
			} else {
				p.hi++
			}
		case q.variant:
			p.hi++
		case len(q.nodes) > 0:
			p.ri++
		default:
			p.rot = append(p.rot[:p.ri], p.rot[p.ri+1:]...)
			p.done++
		}
	}
	p.nodes = nil
	if len(p.rot) == 0 {
		p.rot, p.deferred, p.ri = p.deferred, nil, 0
	}
	if p.ri >= len(p.rot) {
		p.ri = 0
	}
	// The extension's searches and the pairs' take turns: a budget of
	// schedules reaches every pair, and the combinations that move the
	// fewest events, whichever start they come from, come first.
	p.hbTurn = !p.hbTurn
	if p.hi >= len(p.hbq) {
		p.hi = 0
	}
	switch {
	case len(p.hbq) > 0 && (p.hbTurn || len(p.rot) == 0):
		p.cur = p.hbq[p.hi][0]
	case len(p.rot) > 0:
		p.cur = p.rot[p.ri]
	default:
		p.cur, p.pair = nil, pairwiseP{-1, -1, 0}
		p.finished = true
		return false
	}
	p.cur.ran = true
	p.pair, p.nodes = p.cur.pair, p.cur.nodes
	p.replayed = len(p.nodes)
	if p.cur.variant {
		p.held = p.cur.held
	} else if !p.noHB {
		p.tracking = true
		p.hb.reset()
	}
	return true
}

// Next implements Strategy.
func (p *Pairwise) Next(pt *Point) int {
	var loc Locator
	if pt.Kind == Goroutine {
		loc = pt.Where
		p.observe(pt, loc)
		if p.tracking {
			p.hb.point(pt)
		}
	}
	var n *pairwiseNode
	if p.depth < len(p.nodes) {
		// Replaying the prefix, or the node whose next alternative
		// this execution takes.
		n = &p.nodes[p.depth]
		if n.done < len(n.alts) && p.depth == len(p.nodes)-1 {
			n.done++
		}
	} else {
		p.nodes = append(p.nodes, pairwiseNode{kind: pt.Kind, alts: p.alternatives(pt), done: 1})
		n = &p.nodes[len(p.nodes)-1]
	}
	p.depth++
	want := n.alts[n.done-1]
	if pt.Kind == Goroutine && p.active() && pt.Index(p.pair.gi) >= 0 && p.giMoves == p.giEntry && !p.begun {
		// Gi at the entry: it waits there while others run, until it
		// is chosen, which starts the fragment.
		p.parked = want != p.pair.gi
		if want == p.pair.gi {
			p.begun = true
			if p.tracking && p.depth >= p.replayed {
				// Not while replaying a prefix: an earlier
				// execution started the fragment at the same
				// point and extended the nodes before it.
				p.hb.begin(p.pair.gi, p.depth-1)
			}
		}
	}
	if p.begun && !p.giIn {
		// Gi has left the fragment: the moved events come now.
		p.held = nil
	}
	if pt.Kind == Goroutine && p.begun && p.active() && pt.Current == p.pair.gi && pt.Index(p.pair.gi) >= 0 && want == p.pair.gj {
		p.switches++
	}
	if pt.Kind == Goroutine {
		i := pt.Index(want)
		if i < 0 {
			// The program diverged from the prefix: no preemption.
			i = pt.Index(p.defaultChoice(pt))
		}
		if p.tracking {
			var ev *Event
			if i < len(pt.Events) {
				ev = &pt.Events[i]
			}
			p.hb.step(pt.Choices[i], p.depth-1, ev)
		}
		return i
	}
	if want < len(pt.Choices) {
		return want
	}
	return 0
}

// observe tags the point's goroutines with their spawn sites, notes those
// inside a fragment (new candidates make new pairs), and follows Gi.
func (p *Pairwise) observe(pt *Point, loc Locator) {
	if loc == nil {
		return
	}
	sp, _ := loc.(Spawner)
	for _, id := range pt.Choices {
		if _, ok := p.spawn[id]; !ok {
			var f Frame
			if sp != nil {
				f, _ = sp.Spawned(id)
			}
			p.spawn[id] = f
			if p.spawns[f] {
				p.candidate(id)
			}
			p.addPairsWith(id)
		}
		if !p.inside[id] {
			if _, frames, _ := loc.Where(id); p.inFragment(frames) {
				p.inside[id] = true
				p.candidate(id)
			}
		}
	}
	gi := p.pair.gi
	if gi < 0 || pt.Index(gi) < 0 {
		// Gi has not moved since it was last enabled.
		return
	}
	_, frames, moves := loc.Where(gi)
	p.giMoves = moves
	in := p.inFragment(frames)
	if in && !p.giIn {
		p.visits++
		p.giEntry = moves
		switch {
		case p.visits == p.pair.visit+1:
			// Gi runs a fragment again: its next run is a search
			// of its own.
			next := pairwiseP{gi, p.pair.gj, p.visits}
			if !p.queued[next] {
				p.queued[next] = true
				p.deferred = append(p.deferred, &pairwiseSearch{pair: next})
			}
		}
	}
	if !in || moves != p.giEntry {
		p.parked = false
	}
	p.giIn = in
}

// isCandidate reports whether goroutine id runs a fragment.
func (p *Pairwise) isCandidate(id int) bool {
	return p.inside[id] || (p.spawns[p.spawn[id]] && p.spawn[id] != Frame{})
}

// candidate makes id a Gi: it is paired with every goroutine seen.
func (p *Pairwise) candidate(id int) {
	ids := make([]int, 0, len(p.spawn))
	for j := range p.spawn {
		ids = append(ids, j)
	}
	sort.Ints(ids)
	for _, j := range ids {
		p.enqueue(pairwiseP{id, j, 1})
	}
}

// addPairsWith pairs a newly seen goroutine with every candidate.
func (p *Pairwise) addPairsWith(id int) {
	for gi := range p.spawn {
		if gi != id && p.isCandidate(gi) {
			p.enqueue(pairwiseP{gi, id, 1})
		}
	}
}

func (p *Pairwise) enqueue(q pairwiseP) {
	if q.gi == q.gj || p.queued[q] {
		return
	}
	p.queued[q] = true
	if p.met[pairwiseMeet{q.gi, p.spawn[q.gj]}] {
		p.deferred = append(p.deferred, &pairwiseSearch{pair: q})
		return
	}
	p.met[pairwiseMeet{q.gi, p.spawn[q.gj]}] = true
	p.rot = append(p.rot, &pairwiseSearch{pair: q})
}

func (p *Pairwise) inFragment(frames []Frame) bool {
	for _, f := range frames {
		for _, fr := range p.frags {
			if fr.Contains(f.File, f.Line) {
				return true
			}
		}
	}
	return false
}

// alternatives are the choices a new node explores, the default first.
func (p *Pairwise) alternatives(pt *Point) []int {
	gi, gj := p.pair.gi, p.pair.gj
	if pt.Kind != Goroutine {
		if p.active() && pt.Current == gi {
			alts := make([]int, len(pt.Choices))
			for i := range alts {
				alts[i] = i
			}
			return alts
		}
		return []int{0}
	}
	def := p.defaultChoice(pt)
	if !p.active() || pt.Index(gi) < 0 {
		return []int{def}
	}
	atEntry := !p.begun && p.giMoves == p.giEntry
	if pt.Index(gj) >= 0 {
		branch := (pt.Current == gi && p.switches == 0) || (pt.Current == gj && atEntry)
		switch {
		case branch && def == gi:
			return []int{gi, gj}
		case branch && def == gj:
			return []int{gj, gi}
		}
		return []int{def}
	}
	if atEntry && def == gi {
		// Gj cannot run now (not created yet, or blocked): the
		// fragment may also start later, once Gj can.
		for _, c := range pt.Choices {
			if c != gi {
				return []int{gi, c}
			}
		}
	}
	return []int{def}
}

// defaultChoice is the choice without preemption: the current goroutine
// goes on; when it cannot, the lowest enabled one runs, other than Gi
// while Gi is parked at a fragment's entry and the goroutines held until
// it starts the fragment. When only those can run, Gi does (starting the
// fragment releases the others).
func (p *Pairwise) defaultChoice(pt *Point) int {
	gi := p.pair.gi
	free := func(c int) bool { return !p.held[c] && !(p.parked && c == gi) }
	if pt.Index(pt.Current) >= 0 && free(pt.Current) {
		return pt.Current
	}
	for _, c := range pt.Choices {
		if free(c) {
			return c
		}
	}
	if gi >= 0 && pt.Index(gi) >= 0 {
		return gi
	}
	return pt.Choices[0]
}

// extendHB is the paper's happens-before extension, at the end of an
// execution of a pair's own search in which Gi started the fragment (at
// a point no earlier execution had reached): the third goroutines' events
// not guaranteed to happen before the start make a search of every
// combination of them put after the fragment (hbGen), which takes
// executions in turn with the pairs' (as an alternative deep in this
// depth-first search it would wait for everything below it), the
// combinations of every start by the events they move.
func (p *Pairwise) extendHB() {
	cuts := p.hb.cuts(p.pair.gi, p.pair.gj)
	if len(cuts) == 0 {
		return
	}
	gen := newHBGen(p.pair, p.nodes, &p.hb, cuts)
	gen.one = p.hbOne
	if !gen.next() {
		return
	}
	nodes, held := gen.prefix()
	p.queueHB(&pairwiseSearch{pair: p.pair, nodes: nodes, held: held, variant: true, gen: gen})
}

// queueHB puts an extension's search in its pair's queue, after those
// that move as few events or fewer.
func (p *Pairwise) queueHB(q *pairwiseSearch) {
	k := 0
	for k < len(p.hbq) && p.hbq[k][0].pair != q.pair {
		k++
	}
	if k == len(p.hbq) {
		p.hbq = append(p.hbq, nil)
	}
	p.hbq[k] = byWeight(p.hbq[k], q)
}

// byWeight inserts q into qs after the searches that move as few events
// or fewer.
func byWeight(qs []*pairwiseSearch, q *pairwiseSearch) []*pairwiseSearch {
	w := q.gen.weight()
	i := len(qs)
	for i > 0 && qs[i-1].gen.weight() > w {
		i--
	}
	qs = append(qs, nil)
	copy(qs[i+1:], qs[i:])
	qs[i] = q
	return qs
}

// Status implements Status.
func (p *Pairwise) Status() string {
	if p.loadErr != nil {
		return "no change to check: " + p.loadErr.Error()
	}
	total, variants := p.done, p.variantsDone
	total += len(p.rot) + len(p.deferred)
	for _, qs := range p.hbq {
		for _, q := range qs {
			variants = min(variants+q.gen.total-q.gen.index+1, 1<<31-1)
		}
	}
	s := fmt.Sprintf("%d of %d goroutine pairs", p.done, total)
	if variants > 0 {
		s += fmt.Sprintf(" (and %d of %d searches of the happens-before extension)", p.variantsDone, variants)
	}
	if total == 0 {
		s = "no goroutine reached the change"
	}
	if p.finished {
		s += "; every pair searched; not a proof: only pairs of goroutines around the change, the version before it taken as checked"
	}
	return s
}

// Exhausted implements Status.
func (p *Pairwise) Exhausted() bool { return p.finished }
