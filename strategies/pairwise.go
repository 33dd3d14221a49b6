package strategies

import (
	"fmt"
	"sort"
)

// Pairwise is pairwise incremental checking ("pairwise", seed 003): the
// previous version of the program was checked already, and a change added
// or removed thread-interaction statements in a few fragments of code
// (Fragments, computed from a git diff by `gosct test --since`). Only the
// interleavings that involve a fragment need exploring: for every pair of
// a goroutine Gi that runs a fragment and another goroutine Gj, a
// stateless depth-first search whose only scheduling choices are
//
//   - Gi or Gj, while Gi is inside its fragment and Gi is the current
//     goroutine (Gj may run at every scheduling point inside the fragment);
//   - Gi or Gj, while Gj is the current goroutine and Gi waits at the
//     fragment's entry (the fragment may start at every scheduling point
//     of Gj);
//   - the select cases and small random draws Gi makes inside the fragment;
//   - any enabled goroutine, where the current one blocks or exits while
//     Gi is inside its fragment or waits at its entry (no preemption).
//
// Everywhere else nothing is preempted: the current goroutine goes on,
// and when it blocks or exits the lowest-numbered enabled goroutine runs.
//
// The seed's extension for more than two goroutines: when Gi enters a
// fragment, each synchronization event (lock, unlock, channel operation,
// wait) that a third goroutine made after Gi last became enabled is not
// ordered before the fragment, so the search also explores running Gi
// instead of it at the point where it was scheduled, which puts the event
// after the fragment. Deadlocks over three goroutines are found so.
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
// seed's artifact tells threads apart by their dynamic ids.
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
	started  bool
	finished bool

	// The search of the current pair: one node per decision of the
	// current execution.
	nodes []pairwiseNode
	depth int

	// Per execution: Gi's position with respect to the fragments.
	giIn       bool // Gi's last known position is inside a fragment
	giEntry    int  // Gi's moves when it entered the fragment it is in
	giMoves    int  // Gi's moves at the current point
	visits     int  // Gi's entries into a fragment so far
	parked     bool // Gi waits at the entry while others run
	lastGiWait int  // depth of the last node where Gi was not enabled

	noHB bool // tests: the search without the happens-before extension
}

// pairwiseSearch is the depth-first search of one pair: the decisions
// of its last execution.
type pairwiseSearch struct {
	pair  pairwiseP
	nodes []pairwiseNode
	ran   bool
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
	// For Kind Goroutine nodes: the goroutine chosen, whether its
	// operation synchronizes, and whether Gi was enabled.
	kind     Kind
	chosenOp string
	giOn     bool
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
	register(Info{Name: "pairwise", Summary: "pairwise incremental checking of a change (gosct test --since REV)", Systematic: true, New: func(o Options) Strategy { return NewPairwise(o) }})
}

// Locates implements Locating: the search needs every goroutine's position.
func (p *Pairwise) Locates() bool { return true }

// Stateless implements Stateless: each pair's search replays a prefix.
func (p *Pairwise) Stateless() bool { return true }

// NewExecution implements Strategy.
func (p *Pairwise) NewExecution() bool {
	p.depth = 0
	p.giIn, p.giEntry, p.giMoves, p.visits, p.parked, p.lastGiWait = false, 0, 0, 0, false, -1
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
	if p.cur != nil {
		p.cur.nodes = p.nodes
		if len(p.nodes) == 0 {
			p.rot = append(p.rot[:p.ri], p.rot[p.ri+1:]...)
			p.done++
		} else {
			p.ri++
		}
	}
	p.nodes = nil
	if len(p.rot) == 0 {
		p.rot, p.deferred, p.ri = p.deferred, nil, 0
	}
	if len(p.rot) == 0 {
		p.cur, p.pair = nil, pairwiseP{-1, -1, 0}
		p.finished = true
		return false
	}
	if p.ri >= len(p.rot) {
		p.ri = 0
	}
	p.cur = p.rot[p.ri]
	p.cur.ran = true
	p.pair, p.nodes = p.cur.pair, p.cur.nodes
	return true
}

// Next implements Strategy.
func (p *Pairwise) Next(pt *Point) int {
	var loc Locator
	if pt.Kind == Goroutine {
		loc = pt.Where
		p.observe(pt, loc)
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
		if pt.Kind == Goroutine {
			n.giOn = p.pair.gi >= 0 && pt.Index(p.pair.gi) >= 0
		}
	}
	if pt.Kind == Goroutine && p.pair.gi >= 0 && !n.giOn {
		p.lastGiWait = p.depth
	}
	p.depth++
	want := n.alts[n.done-1]
	if pt.Kind == Goroutine && p.active() && pt.Index(p.pair.gi) >= 0 && p.giMoves == p.giEntry {
		// Gi at the entry: it waits there while others run, until it
		// is chosen.
		p.parked = want != p.pair.gi
	}
	if pt.Kind == Goroutine {
		if loc != nil && p.pair.gi >= 0 {
			n.chosenOp, _, _ = loc.Where(want)
		}
		if i := pt.Index(want); i >= 0 {
			return i
		}
		return p.fallback(pt) // the program diverged from the prefix
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
		case p.visits == p.pair.visit && p.depth >= len(p.nodes):
			// Not while replaying a prefix: an earlier execution
			// saw this entry and extended the nodes before it.
			p.extendHB()
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
	if p.active() && pt.Index(pt.Current) < 0 && len(pt.Choices) > 1 {
		// The current goroutine blocked or exited while Gi is in its
		// fragment or waits at its entry: who runs next is no
		// preemption, and any enabled goroutine may (so the third
		// goroutines of a deadlock can take their locks).
		alts := []int{def}
		for _, c := range pt.Choices {
			if c != def {
				alts = append(alts, c)
			}
		}
		return alts
	}
	if !p.active() || pt.Index(gi) < 0 {
		return []int{def}
	}
	atEntry := p.giMoves == p.giEntry
	if pt.Index(gj) >= 0 {
		branch := pt.Current == gi || (pt.Current == gj && atEntry)
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
// while Gi is parked at a fragment's entry.
func (p *Pairwise) defaultChoice(pt *Point) int {
	gi := p.pair.gi
	if p.parked {
		if pt.Current != gi && pt.Index(pt.Current) >= 0 {
			return pt.Current
		}
		for _, c := range pt.Choices {
			if c != gi {
				return c
			}
		}
		return gi
	}
	if pt.Index(pt.Current) >= 0 {
		return pt.Current
	}
	return pt.Choices[0]
}

// extendHB is the seed's happens-before extension: Gi is entering a
// fragment; the last lock or wait of each third goroutine scheduled
// since Gi last waited is not ordered before the entry, so the search
// also runs Gi first at that point, which puts the event after the
// fragment.
func (p *Pairwise) extendHB() {
	if p.noHB {
		return
	}
	gi, gj := p.pair.gi, p.pair.gj
	added := 0
	seen := map[int]bool{}
	for d := len(p.nodes) - 1; d > p.lastGiWait && d >= 0 && added < pairwiseHBMax; d-- {
		n := &p.nodes[d]
		if n.kind != Goroutine || n.done == 0 {
			continue
		}
		chosen := n.alts[n.done-1]
		if chosen == gi || chosen == gj || seen[chosen] || !n.giOn || !synchronizes(n.chosenOp) {
			continue
		}
		seen[chosen] = true
		if !containsInt(n.alts, gi) {
			n.alts = append(n.alts, gi)
			added++
		}
	}
}

// pairwiseHBMax bounds the events the extension moves after one entry.
const pairwiseHBMax = 4

// synchronizes tells the operations (runtime names) whose order with a
// fragment the extension explores: the seed's lock acquire, release and
// join (Go's waits).
func synchronizes(op string) bool {
	switch op {
	case "mutex lock", "mutex unlock", "rwmutex lock", "rwmutex unlock", "rwmutex rlock", "rwmutex runlock",
		"waitgroup wait", "cond wait":
		return true
	}
	return false
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// fallback is the choice when the prefix no longer matches the program:
// no preemption.
func (p *Pairwise) fallback(pt *Point) int {
	if i := pt.Index(pt.Current); i >= 0 {
		return i
	}
	return 0
}

// Status implements Status.
func (p *Pairwise) Status() string {
	if p.loadErr != nil {
		return "no change to check: " + p.loadErr.Error()
	}
	total := p.done + len(p.rot) + len(p.deferred)
	s := fmt.Sprintf("%d of %d goroutine pairs", p.done, total)
	if total == 0 {
		s = "no goroutine reached the change"
	}
	if p.finished {
		s += " (exhausted)"
	}
	return s
}

// Exhausted implements Status.
func (p *Pairwise) Exhausted() bool { return p.finished }
