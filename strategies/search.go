package strategies

import "fmt"

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

// level is what a stateless search keeps per branching point of the current
// schedule: O(1) words, so the search state is O(depth) however many
// schedules it has explored.
type level struct {
	Rank int       `json:"r"` // rank (in mapleOrder) of the child taken
	N    int       `json:"n"` // number of children
	Acc  int       `json:"a"` // bound cost accumulated before this point
	Cost costModel `json:"c"` // cost model of this point's children
	Kind Kind      `json:"k"`
}

// search is the stateless depth-first search shared by dfs, pb and db. The
// runtime re-executes the test from the start for every schedule; the search
// replays the ranks on its stack, takes rank 0 (the zero-cost, round-robin
// child) at every new point, and between executions backtracks to the
// deepest point with a next child within the bound.
//
// Points with a single child are not branches and are not stacked.
//
// With a bound model (pb, db) the search is iterative: one full pass per
// bound c = 0, 1, ... maxBound, each pass a DFS over the schedules of cost
// <= c. A schedule of cost < c was already explored by an earlier pass; the
// pass still has to run some of them, because a stateless search with
// O(depth) memory only discovers the points where a costly branch can be
// taken by running the zero-cost continuation of a prefix. Every execution
// whose prefix cost is below c is such a re-execution, known in advance: it
// is counted apart (Revisit, Status) and is the only redundancy left; no
// schedule of cost exactly c is run twice.
type search struct {
	name     string
	model    costModel // free for dfs
	bound    int       // current pass bound
	maxBound int

	stack    []level
	pos      int  // index in stack of the next branching point of this run
	acc      int  // cost accumulated in this run
	begun    bool // an execution is under way or finished
	done     bool
	complete bool // done, and no schedule exceeded the bound
	clipped  bool // this pass left out a child for exceeding the bound

	runs      int // executions started
	revisits  int // executions that re-ran a lower-bound schedule
	passNew   int // new schedules in the current pass
	revisit   bool
	diverged  int // points where a replay met a different point
	maxDepth  int
	lastBound int // highest bound whose pass completed, -1 if none
	scratch   []int
}

func newSearch(name string, model costModel, maxBound int) *search {
	if model == free {
		maxBound = 0
	}
	return &search{name: name, model: model, maxBound: maxBound, lastBound: -1}
}

// NewExecution backtracks to the next schedule.
func (s *search) NewExecution() bool {
	if s.done {
		return false
	}
	if !s.begun {
		s.start()
		return true
	}
	if s.pos < len(s.stack) {
		// The execution ended before replaying the whole prefix: the
		// program did not replay. The levels it did not reach are stale.
		s.diverged++
		s.stack = s.stack[:s.pos]
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		l := &s.stack[i]
		r := l.Rank + 1
		if r < l.N && l.Acc+l.Cost.cost(r) <= s.bound {
			l.Rank = r
			s.stack = s.stack[:i+1]
			s.revisit = l.Acc+l.Cost.cost(r) < s.bound
			s.begin()
			return true
		}
	}
	// The pass is over.
	s.stack = s.stack[:0]
	s.lastBound = s.bound
	if !s.clipped || s.bound >= s.maxBound {
		// Either nothing was left out (the whole tree is explored, a
		// higher bound adds nothing) or the last bound is done.
		s.complete = !s.clipped
		s.done = true
		return false
	}
	s.bound++
	s.clipped = false
	s.passNew = 0
	s.revisit = true // the round-robin schedule again
	s.begin()
	return true
}

func (s *search) start() {
	s.begun = true
	s.revisit = false
	s.begin()
}

func (s *search) begin() {
	s.pos, s.acc = 0, 0
	s.runs++
	if s.revisit {
		s.revisits++
	} else {
		s.passNew++
	}
}

// Next replays the stack, then takes rank 0 at every new point.
func (s *search) Next(p *Point) int {
	if !s.begun {
		s.start()
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
	if s.pos < len(s.stack) {
		l := &s.stack[s.pos]
		if l.N != len(ord) || l.Kind != p.Kind {
			// The program did not replay: something outside
			// gosct's control changed it. Keep going from here with
			// what the point offers; the subtree below is new.
			s.diverged++
			s.stack = s.stack[:s.pos+1]
			l.N, l.Kind = len(ord), p.Kind
			if l.Rank >= l.N {
				l.Rank = l.N - 1
			}
		}
		l.Acc, l.Cost = s.acc, model
	} else {
		s.stack = append(s.stack, level{N: len(ord), Acc: s.acc, Cost: model, Kind: p.Kind})
		if s.acc+model.cost(len(ord)-1) > s.bound {
			s.clipped = true
		}
		if len(s.stack) > s.maxDepth {
			s.maxDepth = len(s.stack)
		}
	}
	l := &s.stack[s.pos]
	s.pos++
	s.acc += l.Cost.cost(l.Rank)
	return ord[l.Rank]
}

// Revisit reports whether the current execution re-runs a schedule an
// earlier bound already explored (see search). The runtime may use it not
// to count the execution as a new schedule; any bug it finds was found
// before.
func (s *search) Revisit() bool { return s.revisit }

// Exhausted reports whether every schedule within the bound was explored.
func (s *search) Exhausted() bool { return s.done }

// Bound returns the bound of the pass under way, or of the last pass.
func (s *search) Bound() int { return s.bound }

// Status describes the search, e.g. "bound 1 exhausted, bound 2: 40 new
// schedules (+12 re-runs of lower-bound schedules)".
func (s *search) Status() string {
	var st string
	n := s.runs - s.revisits
	switch {
	case s.model == free && s.done:
		st = fmt.Sprintf("exhausted: %d schedules", n)
	case s.model == free:
		st = fmt.Sprintf("%d schedules, not exhausted", n)
	case s.done && s.complete:
		st = fmt.Sprintf("exhausted: %d schedules, none has more than %d %s", n, s.bound, s.unit())
	case s.done:
		st = fmt.Sprintf("bound %d exhausted: %d schedules", s.bound, n)
	case s.lastBound >= 0:
		st = fmt.Sprintf("bound %d exhausted, bound %d: %d new schedules (%d in all)", s.lastBound, s.bound, s.passNew, n)
	default:
		st = fmt.Sprintf("bound %d: %d schedules", s.bound, n)
	}
	if s.revisits > 0 {
		st += fmt.Sprintf(" (+%d re-runs of lower-bound schedules)", s.revisits)
	}
	if s.diverged > 0 {
		st += fmt.Sprintf("; %d replay divergences: the program is not deterministic under gosct, the search may be incomplete", s.diverged)
	}
	return st
}

func (s *search) unit() string {
	if s.model == preemptive {
		return "preemptions"
	}
	return "delays"
}
