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
//   - Gi or Gj, while Gj is the current goroutine and Gi waits at the
//     fragment's entry (the fragment may start at every scheduling point
//     of Gj);
//   - Gi or Gj, while Gi is inside its fragment and Gi is the current
//     goroutine, until Gj has taken over once (Gj may run at every
//     scheduling point inside the fragment: the seed's explored set
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
// The seed's extension for more than two goroutines: when Gi starts a
// fragment (takes its first step there, which may be long after it
// reached the entry, since it waits there for Gj), the last acquisition
// (lock, wait) that each third goroutine made after Gi last became
// enabled is not ordered before the fragment, so the search also explores
// putting it after the fragment's start: at the point where it was
// scheduled, that goroutine is held back until Gi has started the
// fragment (Gi runs there if it can, else the others go on without it).
// Deadlocks over three goroutines are found so, also when Gi waits for a
// Gj that only exists once the third goroutine's events are done.
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
	// variantsDone counts the extension's searches exhausted.
	variantsDone int
	started      bool
	finished     bool

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
	begun      bool // Gi has taken its first step in the searched run of the fragment
	switches   int  // Gj chosen at a point of Gi inside the fragment, this execution
	// held are the third goroutines the extension holds back until Gi
	// starts the fragment (or nobody else can run).
	held map[int]bool
	// replayed is how many nodes this execution replays from the
	// search's last one: the extension works only past them (an earlier
	// execution extended the same prefix).
	replayed int

	noHB bool // tests: the search without the happens-before extension
}

// pairwiseSearch is the depth-first search of one pair: the decisions
// of its last execution.
type pairwiseSearch struct {
	pair  pairwiseP
	nodes []pairwiseNode
	ran   bool
	// variant: the search of one alternative of the extension (a
	// goroutine held back), below a prefix of the pair's search.
	variant bool
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
	// held are the goroutines whose hold, from this node, the
	// extension made a search of.
	held []int
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
	p.begun, p.held, p.switches = false, map[int]bool{}, 0
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
			if p.cur.variant {
				p.variantsDone++
			} else {
				p.done++
			}
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
	p.replayed = len(p.nodes)
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
	if pt.Kind == Goroutine && want < 0 {
		// The extension's alternative: the goroutine chosen here in an
		// earlier execution waits until Gi has started the fragment.
		p.held[heldID(want)] = true
		want = p.defaultChoice(pt)
		if gi := p.pair.gi; pt.Index(gi) >= 0 && !p.parked {
			want = gi // as soon as it can, as if Gi had run here
		}
	}
	if pt.Kind == Goroutine && p.active() && pt.Index(p.pair.gi) >= 0 && p.giMoves == p.giEntry && !p.begun {
		// Gi at the entry: it waits there while others run, until it
		// is chosen, which starts the fragment.
		p.parked = want != p.pair.gi
		if want == p.pair.gi {
			p.begun = true
			if p.depth >= p.replayed {
				// Not while replaying a prefix: an earlier
				// execution started the fragment at the same
				// point and extended the nodes before it.
				p.extendHB(p.depth - 1)
			}
			p.held = map[int]bool{}
		}
	}
	if pt.Kind == Goroutine && p.begun && p.active() && pt.Current == p.pair.gi && pt.Index(p.pair.gi) >= 0 && want == p.pair.gj {
		p.switches++
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

// extendHB is the seed's happens-before extension: Gi starts a fragment
// at node start; the last acquisition (lock or wait) of each third
// goroutine scheduled since Gi last waited is not ordered before the
// start, so the search also holds that goroutine back at that point
// until Gi has started the fragment, which puts the event, and the rest
// of its critical section, after the fragment's start. Only in an
// execution with no goroutine held yet: each alternative moves one
// goroutine's events, as the seed's extension explores each event before
// or after the fragment; moving several at once would multiply the
// search.
func (p *Pairwise) extendHB(start int) {
	if p.noHB || p.holds() > 0 {
		return
	}
	gi, gj := p.pair.gi, p.pair.gj
	added := 0
	seen := map[int]bool{}
	for d := start - 1; d > p.lastGiWait && d >= 0 && added < pairwiseHBMax; d-- {
		n := &p.nodes[d]
		if n.kind != Goroutine || n.done == 0 {
			continue
		}
		chosen := n.alts[n.done-1]
		if chosen < 0 || chosen == gi || chosen == gj || seen[chosen] || !n.giOn || !acquires(n.chosenOp) {
			continue
		}
		seen[chosen] = true
		if containsInt(n.held, chosen) {
			continue
		}
		n.held = append(n.held, chosen)
		added++
		// The variant is a search of its own, taking executions in
		// turn with the pairs': as an alternative of this node it
		// would wait until the whole search below the node is done.
		prefix := make([]pairwiseNode, d+1)
		for k := range prefix {
			c := p.nodes[k]
			c.alts, c.done, c.held = []int{c.alts[c.done-1]}, 1, nil
			prefix[k] = c
		}
		prefix[d].alts, prefix[d].done = []int{holdAlt(chosen)}, 0
		p.rot = append(p.rot, &pairwiseSearch{pair: p.pair, nodes: prefix, variant: true})
	}
}

// holds counts the goroutines this execution's prefix holds back.
func (p *Pairwise) holds() int {
	n := 0
	for d := 0; d < p.depth && d < len(p.nodes); d++ {
		if nd := p.nodes[d]; nd.done > 0 && nd.alts[nd.done-1] < 0 {
			n++
		}
	}
	return n
}

// holdAlt is the alternative value that holds goroutine g back (choice
// values are goroutine ids, never negative); heldID inverts it.
func holdAlt(g int) int  { return -2 - g }
func heldID(alt int) int { return -2 - alt }

// pairwiseHBMax bounds the events the extension moves after one start.
const pairwiseHBMax = 6

// acquires tells the operations (runtime names) whose order with a
// fragment the extension explores: the seed's lock acquire and join
// (Go's waits). Postponing an acquisition postpones its whole critical
// section; a release alone is not moved (the lock would stay held
// across the fragment, which only blocks Gi).
func acquires(op string) bool {
	switch op {
	case "mutex lock", "rwmutex lock", "rwmutex rlock", "waitgroup wait", "cond wait":
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
	total, variants := p.done, p.variantsDone
	for _, q := range append(p.rot[:len(p.rot):len(p.rot)], p.deferred...) {
		if q.variant {
			variants++
		} else {
			total++
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
