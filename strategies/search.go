package strategies

import (
	"fmt"
	"strings"
)

// costModel says what a branch costs against a schedule bound.
type costModel uint8

const (
	// free: every branch costs nothing (plain DFS, and select cases).
	free costModel = iota
	// preemptive: every child but the first costs one preemption (the
	// first child is the current goroutine, still enabled).
	preemptive
	// delaying: the child of rank r costs r delays (see mapleOrder).
	delaying
)

// cost returns the bound cost of taking the child of rank r.
func (m costModel) cost(r int) int {
	switch m {
	case preemptive:
		if r > 0 {
			return 1
		}
	case delaying:
		return r
	}
	return 0
}

// level is what the search keeps per branching point of the current
// schedule beyond the prefix of its item: O(1) words, so the search state is
// O(depth) however many schedules it has explored.
type level struct {
	Rank int  `json:"r"` // rank (in mapleOrder) of the child taken
	N    int  `json:"n"` // number of children
	Free bool `json:"f"` // every child costs nothing: a branch of the DFS
	Kind Kind `json:"k"`
	// Lo and Hi are the virtual parts below a free point of a sharded
	// search while there are several (see part); 0 otherwise.
	Lo int `json:"lo,omitempty"`
	Hi int `json:"hi,omitempty"`
}

// search is the stateless search shared by dfs, pb and db. The runtime
// re-executes the test from the start for every schedule; the search
// replays a prefix of decisions, then decides the new points itself.
//
// Points with a single child are not branches; "point i" below counts only
// the branching points of an execution.
//
// The schedules of cost exactly c are split by their last costly decision:
// an item is the prefix of decisions up to and including that decision,
// written sparsely as the points where it does not take rank 0 (see delta).
// Below an item every decision costs nothing, so the schedules of the item
// are the leaves of a subtree that a DFS over zero-cost children enumerates
// with one level per point (the stack). Whenever that DFS reaches a point
// for the first time, each costly child of the point is the item of a
// subtree of higher cost, and goes to the frontier of its cost.
//
// Iterative bounding then needs no re-execution: bound c runs the items of
// cost c, each schedule of cost c is the leaf of exactly one item, and is
// run once; the schedules of a lower bound are never run again. The items
// of the bounds above c wait in the frontier, which spills to a temporary
// file beyond a few megabytes (see frontier), so the memory the search
// holds is O(depth) whatever the number of schedules explored. With the
// free cost model (dfs) there is a single item, the empty one, and the
// search is a plain DFS.
type search struct {
	name     string
	model    costModel // free for dfs
	bound    int       // cost of the items being run
	top      int       // highest bound an item was run at
	maxBound int

	item  []delta // the item whose subtree is being explored
	base  int     // points covered by item: 0 .. base-1
	stack []level // points base, base+1, ...
	front frontier

	pos      int // index of the next branching point of this execution
	di       int // index in item of the next delta to replay
	acc      int // cost accumulated in this execution
	begun    bool
	done     bool
	clipped  bool // a child was left out for exceeding maxBound
	runs     int  // executions started
	passNew  int  // executions of the current bound
	diverged int  // points where a replay met a different point
	maxDepth int
	scratch  []int
	emit     []delta
	// nz holds the deltas of stack[:nzLevels] (the levels whose rank is
	// not 0), so that filing a point's children costs the item's size,
	// not the depth: see file.
	nz       []delta
	nzLevels int
	// part, when the search is one machine's part of a sharded search,
	// restricts it to the leaves of that part (shard.go); probes counts the
	// executions it ran outside them.
	part   *part
	probes int
}

// A delta is one decision of an item that does not take rank 0.
type delta struct {
	Pos  int // index of the branching point
	Rank int // rank taken there
}

func newSearch(name string, model costModel, maxBound int) *search {
	if model == free {
		maxBound = 0
	}
	return &search{name: name, model: model, maxBound: maxBound}
}

// NewExecution backtracks to the next schedule: the next zero-cost child
// in the current item's subtree, or else the next item of the frontier.
func (s *search) NewExecution() bool {
	if s.done {
		return false
	}
	if !s.begun {
		s.begun = true
		s.begin()
		return true
	}
	if !s.Owned() {
		s.probes++
		s.passNew--
	}
	if s.pos < s.base+len(s.stack) {
		// The execution ended before replaying its whole prefix: the
		// program did not replay. The levels it did not reach are stale.
		s.diverged++
		if s.pos >= s.base {
			s.stack = s.stack[:s.pos-s.base]
		}
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		l := &s.stack[i]
		if r := s.nextRank(l, l.Rank+1); l.Free && r < l.N {
			l.Rank = r
			s.stack = s.stack[:i+1]
			s.begin()
			return true
		}
	}
	s.stack = s.stack[:0]
	for ; s.bound <= s.maxBound; s.bound, s.passNew = s.bound+1, 0 {
		if it, ok := s.front.pop(s.bound, s.item[:0]); ok {
			s.item, s.top = it, s.bound
			s.base = it[len(it)-1].Pos + 1
			s.begin()
			return true
		}
	}
	s.bound = s.top
	s.done = true
	s.front.close()
	return false
}

func (s *search) begin() {
	s.pos, s.di, s.acc = 0, 0, 0
	s.nz, s.nzLevels = s.nz[:0], 0
	s.runs++
	s.passNew++
	if s.part != nil {
		s.part.begin()
	}
}

// Next replays the item and the stack, then takes rank 0 at every new
// point and files its costly children in the frontier.
func (s *search) Next(p *Point) int {
	if !s.begun {
		s.begun = true
		s.begin()
	}
	s.scratch = mapleOrder(p, s.scratch)
	ord := s.scratch
	if len(ord) == 1 {
		return ord[0]
	}
	model := s.model
	if p.Kind != Goroutine || (model == preemptive && !currentRuns(p)) {
		model = free
	}
	i := s.pos
	s.pos++
	if i < s.base {
		r := 0
		if s.di < len(s.item) && s.item[s.di].Pos == i {
			r = s.item[s.di].Rank
			s.di++
			if r >= len(ord) {
				s.diverged++
				r = len(ord) - 1
			}
		}
		s.acc += model.cost(r)
		s.descend(model, len(ord), r)
		return ord[r]
	}
	j := i - s.base
	if j < len(s.stack) {
		l := &s.stack[j]
		if l.N != len(ord) || l.Kind != p.Kind || l.Free != (model == free) {
			// Something outside gosct's control changed the program.
			// Keep going with what the point offers; below is new.
			s.diverged++
			s.stack = s.stack[:j+1]
			s.forgetLevels(j)
			l.N, l.Kind, l.Free = len(ord), p.Kind, model == free
			if !l.Free || l.Rank >= l.N {
				l.Rank = 0
			}
		}
		if s.part != nil && l.Free {
			l.Lo, l.Hi = 0, 0
			if s.part.hi-s.part.lo > 1 {
				l.Lo, l.Hi = s.part.lo, s.part.hi
			}
		}
		s.descend(model, len(ord), l.Rank)
		return ord[l.Rank]
	}
	l := level{N: len(ord), Free: model == free, Kind: p.Kind}
	if s.part != nil && l.Free && s.part.hi-s.part.lo > 1 {
		// Where the path is still shared, take the first child that
		// leads to leaves of this part.
		l.Lo, l.Hi = s.part.lo, s.part.hi
		l.Rank = s.nextRank(&l, 0)
	}
	s.stack = append(s.stack, l)
	if d := s.base + len(s.stack); d > s.maxDepth {
		s.maxDepth = d
	}
	if model != free {
		s.file(i, len(ord), model)
	}
	s.descend(model, len(ord), l.Rank)
	return ord[l.Rank]
}

// descend moves a sharded search's path state below child r.
func (s *search) descend(model costModel, n, r int) {
	if s.part != nil {
		s.part.descend(model == free, n, r, s.dealt(n, model))
	}
}

// file puts the costly children of the new point i in the frontier: the
// item of each is the current schedule up to i, then that child.
func (s *search) file(i, n int, model costModel) {
	for r := 1; r < n; r++ {
		c := s.acc + model.cost(r)
		if c > s.maxBound {
			// Costs grow with the rank: the children from r on are
			// left out. That makes this part's search incomplete only
			// if one of them is this part's.
			for k := r; k < n && !s.clipped; k++ {
				s.clipped = s.part == nil || s.part.ownsCostly(k)
			}
			break
		}
		if s.part != nil && !s.part.ownsCostly(r) {
			continue // other machines' subtree
		}
		e := append(s.emit[:0], s.item...)
		e = append(e, s.levelDeltas()...)
		e = append(e, delta{i, r})
		s.emit = e
		s.front.push(c, e)
	}
}

// levelDeltas returns the deltas of the stack's levels but the last, kept
// from one point to the next: the levels below the last change only when
// a new execution begins or a replay diverges (forgetLevels).
func (s *search) levelDeltas() []delta {
	if s.nzLevels > len(s.stack)-1 {
		s.forgetLevels(len(s.stack) - 1)
	}
	for ; s.nzLevels < len(s.stack)-1; s.nzLevels++ {
		if l := s.stack[s.nzLevels]; l.Rank != 0 {
			s.nz = append(s.nz, delta{s.base + s.nzLevels, l.Rank})
		}
	}
	return s.nz
}

// forgetLevels drops the kept deltas of the levels from j on.
func (s *search) forgetLevels(j int) {
	if j >= s.nzLevels {
		return
	}
	s.nzLevels = max(j, 0)
	k := len(s.nz)
	for k > 0 && s.nz[k-1].Pos >= s.base+s.nzLevels {
		k--
	}
	s.nz = s.nz[:k]
}

// Stateless is true: the search re-executes prefixes of its schedules.
func (s *search) Stateless() bool { return true }

// Exhausted reports whether every schedule within the bound was explored.
func (s *search) Exhausted() bool { return s.done }

// Bound returns the bound being explored, or the highest one explored.
func (s *search) Bound() int { return s.bound }

// Status describes the search, e.g. "every schedule within bound 1 run,
// bound 2: 40 new schedules (73 in all)".
func (s *search) Status() string {
	var st string
	n := s.runs - s.probes
	switch {
	case s.model == free && s.done:
		st = fmt.Sprintf("exhausted: %d schedules", n)
	case s.model == free:
		st = fmt.Sprintf("%d schedules, not exhausted", n)
	case s.done && !s.clipped:
		st = fmt.Sprintf("exhausted: %d schedules, none has more than %d %s", n, s.bound, s.unit())
	case s.done:
		st = fmt.Sprintf("exhausted within bound %d: %d schedules", s.bound, n)
	case s.bound > 0:
		st = fmt.Sprintf("every schedule within bound %d run, bound %d: %d schedules (%d in all)", s.bound-1, s.bound, s.passNew, n)
	default:
		st = fmt.Sprintf("bound 0: %d schedules", n)
	}
	var why []string
	if s.done && s.clipped {
		why = append(why, fmt.Sprintf("schedules with more than %d %s were left out", s.bound, s.unit()))
	}
	if s.diverged > 0 {
		why = append(why, fmt.Sprintf("%d replay divergences: the program is not deterministic under gosct", s.diverged))
	}
	switch {
	case len(why) == 0:
	case s.done:
		st = NotAProof(st, strings.Join(why, "; "))
	default:
		st += "; " + strings.Join(why, "; ") + ", the search may be incomplete"
	}
	return st
}

func (s *search) unit() string {
	if s.model == preemptive {
		return "preemptions"
	}
	return "delays"
}
