package strategies

import "fmt"

// One search on several machines (gosct test --shard i/n): each machine
// runs one part, and the parts together run exactly the schedules of the
// whole search, each once. How a strategy is divided depends on what its
// schedules are:
//
//   - A sampling strategy's schedule is a function of the seed and the
//     schedule's number (execRand), so the parts are ranges of numbers: the
//     runtime moves the strategy to the start of its range (Seeker) and runs
//     the range, numbered as in the whole search.
//   - A systematic search's schedules are the leaves of a tree that only
//     running the program reveals, so the parts are subtrees, chosen as the
//     search goes without running the other parts' schedules (Sharder).
//
// The portfolio is both: its rotation and random members are a range, its
// db member a subtree.

// Seeker is implemented by the strategies whose executions can be drawn
// out of order (random, pct, portfolio).
type Seeker interface {
	// Seek prepares the strategy so that its next NewExecution prepares
	// execution number n+1 of the search, as in a search that ran the n
	// before it. Call it before the first execution. What the strategy
	// learns from executions (PCT's estimates of n and k) it learns from
	// the ones it runs.
	Seek(n int)
}

// Sharder is implemented by the systematic searches whose tree can be
// divided among machines before it is known (dfs, pb, db; the portfolio for
// its db member). A new systematic strategy (dpor, say) becomes shardable
// by implementing it; strategies/shard_test.go then checks that its parts
// together run its whole search, each schedule once.
type Sharder interface {
	// Shard restricts the search to part i of n (0 <= i < n). Call it
	// before the first execution, and before Load: a saved part resumes
	// as the same part.
	Shard(i, n int) error
	// Owned reports whether the execution that just ended belongs to
	// this part. One that does not is a probe: the search had to run it
	// to learn the shape of the tree where it is still shared with other
	// parts, and the part that owns it runs and reports it too. A probe
	// is not a schedule of this part: do not count or report it.
	Owned() bool
}

// partsPerShard is how many virtual parts each machine's part is made of.
// The tree is divided into count·partsPerShard virtual parts at a uniform
// depth, and each machine has partsPerShard of them (machine): each machine
// takes many subtrees from all over the tree instead of one, so that the
// machines' shares are balanced however unequal the subtrees are. More
// virtual parts balance better and cost probes only for the schedules
// shorter than the depth of the division, and for pb and db a few more
// shared subtrees: on a real test's dfs tree of 14725 schedules (the
// end-to-end test's), 16 left the biggest of 8 parts 1.6 times the mean,
// 64 1.2 times.
const partsPerShard = 64

// part is the share of a sharded search: machine index of count. The
// virtual parts below the current point of the execution are lo..hi-1;
// deal is how many of them the costly children along the execution's path
// were dealt.
//
// At a free point (every child costs nothing: dfs, select cases) the
// children divide the virtual parts among them in rank order, as evenly as
// they can (childRange). At a costly point of pb or db, child 0 (no
// preemption, no delay) keeps all of them: the path of the cheapest
// schedules is walked by every machine, which is how they all learn where
// the costly children are. Each costly child, the item of a subtree of
// higher cost, is dealt a range of its own along the path: a share of the
// virtual parts not dealt yet, the shares decreasing, then one part at a
// time in turn (costlyRange). The subtrees that deviate earlier on a path
// are the bigger ones: they are shared by many machines and divided again
// inside, the small late ones go whole to one machine each.
//
// Every point of a path thus has a range of virtual parts, and a leaf
// belongs to one of them (ownedLeaf). A machine only goes down a child whose
// range holds one of its virtual parts, so it runs a schedule of another
// machine only where the program ends while the range is still shared (a
// probe): the cheapest schedule of each shared subtree, and schedules
// shorter than the division is deep.
type part struct {
	index, count int
	virtual      int
	lo, hi       int
	deal         int
}

func newPart(i, n int) *part {
	return &part{index: i, count: n, virtual: n * partsPerShard}
}

// begin resets the path state for a new execution: the root holds every
// virtual part.
func (p *part) begin() { p.lo, p.hi, p.deal = 0, p.virtual, 0 }

// machine is the machine of virtual part v. Each group of count
// consecutive virtual parts holds one part of every machine, in an order
// rotated from group to group: the division puts the first children's
// subtrees at the start of every group, and these are often the bigger ones
// (the goroutine that runs goes on running); with v mod count, machine 1
// would get all of them.
func (p *part) machine(v int) int {
	g := uint64(v / p.count)
	return (v + int(splitmix64(g)%uint64(p.count))) % p.count
}

// owns reports whether the virtual parts a..b-1 hold one of this machine's.
func (p *part) owns(a, b int) bool {
	if b-a >= 2*p.count {
		return true // a whole group
	}
	for v := a; v < b; v++ {
		if p.machine(v) == p.index {
			return true
		}
	}
	return false
}

// childRange is the range of child r of n at a free point of range lo..hi.
// When there are more children than virtual parts, neighbouring children
// share one.
func childRange(lo, hi, n, r int) (int, int) {
	m := hi - lo
	a, b := lo+r*m/n, lo+(r+1)*m/n
	if b <= a {
		b = a + 1
	}
	return a, b
}

// costlyRange returns the range of costly child r (r >= 1) at the current
// point, and how many virtual parts the costly children up to r were dealt
// in all. The next costly child on the path gets an eighth of the virtual
// parts not dealt yet, and once fewer than eight are left one part each, in
// turn (wrapping around). An eighth, not a half: the subtrees along a path
// shrink slowly, and a faster decay hands the fifth one, still big, to a
// single machine (on model programs of 88 to 744845 schedules, halves left
// the biggest of n parts 1.67 times the mean, eighths 1.45). Each shared
// subtree costs its sharers one probe each, a number that depends on the
// division, not on the size of the tree: a few percent of a tree of ten
// thousand schedules into 8 parts, a third of a tree of a few hundred
// (TestShardsBalance logs them).
func (p *part) costlyRange(r int) (a, b, dealt int) {
	m := p.hi - p.lo
	d := p.deal
	for j := 1; j <= r; j++ {
		w := 1
		if rem := m - d; rem >= 8 {
			w = rem / 8
		}
		a = p.lo + d%m
		if a+w > p.hi {
			a = p.hi - w
		}
		b = a + w
		d += w
	}
	return a, b, d
}

// descend moves the path state below child r of a point with n children;
// dealt is the number of costly children of the point within the bound.
func (p *part) descend(free bool, n, r, dealt int) {
	if p.hi-p.lo <= 1 {
		return
	}
	switch {
	case free:
		p.lo, p.hi = childRange(p.lo, p.hi, n, r)
	case r == 0:
		_, _, p.deal = p.costlyRange(dealt)
	default:
		p.lo, p.hi, _ = p.costlyRange(r)
	}
}

// ownsCostly reports whether costly child r's subtree holds leaves of this
// machine.
func (p *part) ownsCostly(r int) bool {
	if p.hi-p.lo <= 1 {
		return p.ownedLeaf()
	}
	a, b, _ := p.costlyRange(r)
	return p.owns(a, b)
}

// ownedLeaf reports whether the execution's leaf is this machine's. A
// leaf reached while the range is still shared goes to the virtual part
// whose turn it would be next on the path: the cheapest schedules of the
// shared subtrees are spread like their costly children.
func (p *part) ownedLeaf() bool {
	v := p.lo
	if m := p.hi - p.lo; m > 1 {
		v += p.deal % m
	}
	return p.machine(v) == p.index
}

// savedPart is a part in a saved search.
type savedPart struct {
	Index   int `json:"index"`
	Count   int `json:"count"`
	Virtual int `json:"virtual"`
	// Path is lo, hi and deal where the last execution ended: the next
	// NewExecution counts it as a probe if it was one.
	Path [3]int `json:"path"`
}

// Shard restricts the search to part i of n.
func (s *search) Shard(i, n int) error {
	if n < 1 || i < 0 || i >= n {
		return fmt.Errorf("no part %d of %d", i+1, n)
	}
	if s.begun {
		return fmt.Errorf("the %s search has started: shard it before its first execution", s.name)
	}
	s.part = nil
	if n > 1 {
		s.part = newPart(i, n)
	}
	return nil
}

// Owned reports whether the execution that just ended is this part's.
func (s *search) Owned() bool { return s.part == nil || s.part.ownedLeaf() }

// nextRank returns the first rank from r on of free level l whose subtree
// holds a leaf of this part, or l.N when there is none.
func (s *search) nextRank(l *level, r int) int {
	if s.part == nil || l.Hi-l.Lo <= 1 {
		return r
	}
	for ; r < l.N; r++ {
		if s.part.owns(childRange(l.Lo, l.Hi, l.N, r)) {
			return r
		}
	}
	return l.N
}

// dealt is the number of costly children of a point with n children that
// the bound admits (costs grow with the rank; the path is still shared only
// while it has cost nothing).
func (s *search) dealt(n int, model costModel) int {
	k := 0
	for r := 1; r < n && model.cost(r) <= s.maxBound; r++ {
		k++
	}
	return k
}

// Shard gives the db member its part of its tree; the rotation and the
// other members are a range of the portfolio's executions (Seek).
func (p *Portfolio) Shard(i, n int) error {
	for _, m := range p.members {
		if sh, ok := m.s.(Sharder); ok {
			if err := sh.Shard(i, n); err != nil {
				return fmt.Errorf("portfolio member %s: %v", m.name, err)
			}
		}
	}
	return nil
}

// Owned asks the member of the execution that just ended.
func (p *Portfolio) Owned() bool {
	if p.cur < 0 {
		return true
	}
	sh, ok := p.members[p.cur].s.(Sharder)
	return !ok || sh.Owned()
}

// Seek puts the rotation where n executions leave it, and each member that
// can seek where its turns among those n leave it. The db member is not
// moved: its turns explore its own part of its tree (Shard). Members that
// a search running the n executions would have seen exhausted are not
// known to be: the rotation counts every member.
func (p *Portfolio) Seek(n int) {
	p.runs = n
	p.turn = (n - 1) % len(p.cycle)
	if n == 0 {
		p.turn = -1
	}
	for i := range p.members {
		m := &p.members[i]
		turns := 0
		for t, c := range p.cycle {
			if c == i {
				turns += n / len(p.cycle)
				if t < n%len(p.cycle) {
					turns++
				}
			}
		}
		if sk, ok := m.s.(Seeker); ok {
			sk.Seek(turns)
			m.runs = turns
		}
	}
}
