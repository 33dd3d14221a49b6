package strategies

import (
	"encoding/json"
	"fmt"
	"io"
)

// Saver is implemented by the systematic searches (dfs, pb, db): their whole
// state is the frontier (the stack of ranks of the current schedule and the
// bound), so a long search can be written to a file between two executions
// and resumed later, in another process, by a strategy of the same name
// created with the same options.
type Saver interface {
	Save(w io.Writer) error
	Load(r io.Reader) error
}

// savedSearch is the file format of a saved search. It is JSON so a frontier
// can be inspected and, by editing the ranks of its first levels, split into
// disjoint subtrees.
type savedSearch struct {
	Format    int     `json:"format"`
	Strategy  string  `json:"strategy"`
	Bound     int     `json:"bound"`
	MaxBound  int     `json:"max_bound"`
	Levels    []level `json:"levels"`
	Begun     bool    `json:"begun"`
	Done      bool    `json:"done"`
	Complete  bool    `json:"complete"`
	Clipped   bool    `json:"clipped"`
	Runs      int     `json:"runs"`
	Revisits  int     `json:"revisits"`
	PassNew   int     `json:"pass_new"`
	Revisit   bool    `json:"revisit"`
	Diverged  int     `json:"diverged"`
	MaxDepth  int     `json:"max_depth"`
	LastBound int     `json:"last_bound"`
}

const saveFormat = 1

// Save writes the search state. Call it between executions.
func (s *search) Save(w io.Writer) error {
	return json.NewEncoder(w).Encode(savedSearch{
		Format: saveFormat, Strategy: s.name, Bound: s.bound, MaxBound: s.maxBound,
		Levels: s.stack, Begun: s.begun, Done: s.done, Complete: s.complete, Clipped: s.clipped,
		Runs: s.runs, Revisits: s.revisits, PassNew: s.passNew, Revisit: s.revisit,
		Diverged: s.diverged, MaxDepth: s.maxDepth, LastBound: s.lastBound,
	})
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
	for i, l := range v.Levels {
		if l.N < 2 || l.Rank < 0 || l.Rank >= l.N || l.Acc < 0 {
			return fmt.Errorf("saved %s search: bad level %d: %+v", s.name, i, l)
		}
	}
	s.bound, s.maxBound, s.stack = v.Bound, v.MaxBound, v.Levels
	s.begun, s.done, s.complete, s.clipped = v.Begun, v.Done, v.Complete, v.Clipped
	s.runs, s.revisits, s.passNew, s.revisit = v.Runs, v.Revisits, v.PassNew, v.Revisit
	s.diverged, s.maxDepth, s.lastBound = v.Diverged, v.MaxDepth, v.LastBound
	// The saved execution reached every level of its stack.
	s.pos, s.acc = len(s.stack), 0
	return nil
}
