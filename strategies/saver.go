package strategies

import (
	"encoding/json"
	"fmt"
	"io"
)

// Saver is implemented by every strategy whose Info says it Resumes (all
// but pairwise): its state can be written to a file between two executions
// and resumed later, in another process, by a strategy of the same name
// created with the same options (gosct test --state, --per-process). For the systematic searches (dfs, pb, db) the
// state is the frontier: the current item and stack, and the items waiting
// for higher bounds; a long search thus survives an interrupted run, and
// its frontier can be split across machines. The random strategies save
// their generators, PCT also the n and k it learned, the portfolio its
// rotation and each member.
type Saver interface {
	Save(w io.Writer) error
	Load(r io.Reader) error
}

// The strategies that resume (Info.Resumes), checked at compile time;
// TestInfo checks that New returns one of these for each.
var (
	_ Saver = (*Random)(nil)
	_ Saver = (*PCT)(nil)
	_ Saver = (*DFS)(nil)
	_ Saver = (*Bounded)(nil)
	_ Saver = (*DFSRB)(nil)
	_ Saver = (*DFSRBPortfolio)(nil)
	_ Saver = (*Guided)(nil)
	_ Saver = (*DPOR)(nil)
	_ Saver = (*Portfolio)(nil)
)

// savedSearch is the file format of a saved search. It is JSON so that a
// frontier can be inspected and split: each machine keeps a disjoint part
// of the waiting items (and one of them the current item and stack).
type savedSearch struct {
	Format   int      `json:"format"`
	Strategy string   `json:"strategy"`
	Bound    int      `json:"bound"`
	Top      int      `json:"top"`
	MaxBound int      `json:"max_bound"`
	Item     [][2]int `json:"item"` // [point, rank] pairs
	Levels   []level  `json:"levels"`
	// Waiting[b] holds the items of bound b not run yet.
	Waiting  [][][][2]int `json:"waiting,omitempty"`
	Begun    bool         `json:"begun"`
	Done     bool         `json:"done"`
	Clipped  bool         `json:"clipped"`
	Runs     int          `json:"runs"`
	PassNew  int          `json:"pass_new"`
	Diverged int          `json:"diverged"`
	MaxDepth int          `json:"max_depth"`
	// Part is the share of a sharded search (Sharder), Probes the
	// executions it ran outside it.
	Part   *savedPart `json:"part,omitempty"`
	Probes int        `json:"probes,omitempty"`
}

const saveFormat = 2

// Save writes the search state. Call it between executions.
func (s *search) Save(w io.Writer) error {
	v := savedSearch{
		Format: saveFormat, Strategy: s.name, Bound: s.bound, Top: s.top, MaxBound: s.maxBound,
		Item: pairs(s.item), Levels: s.stack, Begun: s.begun, Done: s.done, Clipped: s.clipped,
		Runs: s.runs, PassNew: s.passNew, Diverged: s.diverged, MaxDepth: s.maxDepth, Probes: s.probes,
	}
	if s.part != nil {
		v.Part = &savedPart{Index: s.part.index, Count: s.part.count, Virtual: s.part.virtual,
			Path: [3]int{s.part.lo, s.part.hi, s.part.deal}}
	}
	for b := 0; b < s.front.bounds(); b++ {
		var items [][][2]int
		for _, it := range s.front.items(b) {
			items = append(items, pairs(it))
		}
		v.Waiting = append(v.Waiting, items)
	}
	return json.NewEncoder(w).Encode(v)
}

// Load replaces the search state by one Save wrote; the next NewExecution
// continues where the saved search would have.
func (s *search) Load(r io.Reader) error {
	var v savedSearch
	if err := json.NewDecoder(r).Decode(&v); err != nil {
		return fmt.Errorf("reading saved %s search: %v", s.name, err)
	}
	if v.Format != saveFormat {
		return fmt.Errorf("saved search has format %d, want %d", v.Format, saveFormat)
	}
	if v.Strategy != s.name {
		return fmt.Errorf("saved search is %q, not %q", v.Strategy, s.name)
	}
	if v.MaxBound != s.maxBound {
		return fmt.Errorf("saved %s search has bound %d, not %d", s.name, v.MaxBound, s.maxBound)
	}
	part, err := s.loadPart(v.Part)
	if err != nil {
		return err
	}
	for i, l := range v.Levels {
		if l.N < 2 || l.Rank < 0 || l.Rank >= l.N || l.Lo < 0 || l.Hi < l.Lo || part != nil && l.Hi > part.virtual {
			return fmt.Errorf("saved %s search: bad level %d: %+v", s.name, i, l)
		}
	}
	item, err := deltas(v.Item)
	if err != nil {
		return fmt.Errorf("saved %s search: item: %v", s.name, err)
	}
	var front frontier
	for b, items := range v.Waiting {
		for k, p := range items {
			it, err := deltas(p)
			if err != nil || len(it) == 0 {
				return fmt.Errorf("saved %s search: waiting item %d of bound %d: bad", s.name, k, b)
			}
			front.push(b, it)
		}
	}
	s.front.close()
	s.bound, s.top, s.item, s.stack, s.front = v.Bound, v.Top, item, v.Levels, front
	s.nz, s.nzLevels = s.nz[:0], 0
	s.base = 0
	if len(item) > 0 {
		s.base = item[len(item)-1].Pos + 1
	}
	s.begun, s.done, s.clipped = v.Begun, v.Done, v.Clipped
	s.runs, s.passNew, s.diverged, s.maxDepth = v.Runs, v.PassNew, v.Diverged, v.MaxDepth
	s.part, s.probes = part, v.Probes
	// The saved execution reached every level of its stack.
	s.pos = s.base + len(s.stack)
	return nil
}

// loadPart checks the part of a saved search against the one the search was
// given (Shard): a part resumes as the same part. A search given none takes
// the saved one (gosct split divides a part further).
func (s *search) loadPart(sp *savedPart) (*part, error) {
	if sp == nil {
		if s.part != nil {
			return nil, fmt.Errorf("saved %s search is a whole search, not part %d of %d", s.name, s.part.index+1, s.part.count)
		}
		return nil, nil
	}
	if sp.Count < 2 || sp.Index < 0 || sp.Index >= sp.Count || sp.Virtual < sp.Count {
		return nil, fmt.Errorf("saved %s search: bad part %+v", s.name, *sp)
	}
	p := newPart(sp.Index, sp.Count)
	p.virtual = sp.Virtual
	p.lo, p.hi, p.deal = sp.Path[0], sp.Path[1], sp.Path[2]
	if p.lo < 0 || p.hi < p.lo || p.hi > p.virtual || p.deal < 0 {
		return nil, fmt.Errorf("saved %s search: bad part %+v", s.name, *sp)
	}
	if s.part != nil && (s.part.index != p.index || s.part.count != p.count || s.part.virtual != p.virtual) {
		return nil, fmt.Errorf("saved %s search is part %d of %d, not part %d of %d", s.name, p.index+1, p.count, s.part.index+1, s.part.count)
	}
	return p, nil
}

func pairs(item []delta) [][2]int {
	p := make([][2]int, len(item))
	for i, d := range item {
		p[i] = [2]int{d.Pos, d.Rank}
	}
	return p
}

// deltas checks and converts [point, rank] pairs: points ascending, ranks
// above 0 (rank 0 is implied).
func deltas(p [][2]int) ([]delta, error) {
	var item []delta
	for i, d := range p {
		if d[1] < 1 || d[0] < 0 || (i > 0 && d[0] <= p[i-1][0]) {
			return nil, fmt.Errorf("bad decision %v", d)
		}
		item = append(item, delta{d[0], d[1]})
	}
	return item, nil
}
