package strategies

import (
	"bytes"
	"fmt"
)

// Splitter is implemented by the systematic searches (dfs, pb, db, dpor):
// the work a search has left can be divided into independent parts, each
// a saved state that Load accepts, so that several machines explore one
// long search side by side and together run exactly the schedules it had
// left (dpor: every trace it had left, at least once; see DPOR.Split).
// Random strategies need no splitting: give each machine another seed.
type Splitter interface {
	// Split returns n saved states whose searches, run to the end, explore
	// disjoint sets of schedules whose union is what s has left (dpor: sets
	// of traces, not always disjoint). Call it between executions; s itself
	// is not changed.
	Split(n int) ([][]byte, error)
}

// Split divides the remaining work. What is left of the current item's
// subtree is the untried free children of the stack: each becomes an item
// of the current bound (the schedule prefix up to that child), like the
// items waiting in the frontier. The items of every bound are then dealt
// round-robin to the parts; a part starts with an empty stack and takes its
// first item at the next NewExecution.
func (s *search) Split(n int) ([][]byte, error) {
	if n < 1 {
		return nil, fmt.Errorf("cannot split a search into %d parts", n)
	}
	if !s.begun {
		return nil, fmt.Errorf("the %s search has not started: run it once, then split it", s.name)
	}
	if s.pos < s.base+len(s.stack) {
		return nil, fmt.Errorf("the %s search was saved before its schedule ran: resume it once, then split it", s.name)
	}
	parts := make([]*search, n)
	for i := range parts {
		parts[i] = &search{name: s.name, model: s.model, maxBound: s.maxBound,
			bound: s.bound, top: s.top, begun: true, done: s.done, clipped: s.clipped,
			diverged: s.diverged, maxDepth: s.maxDepth}
		if s.part != nil {
			// A part of a sharded search divides into parts of that
			// part: new points keep to its leaves.
			// The execution that ended is accounted for here, once.
			c := *s.part
			c.lo, c.hi = c.index, c.index+1
			parts[i].part = &c
		}
	}
	parts[0].runs, parts[0].passNew, parts[0].probes = s.runs, s.passNew, s.probes
	if !s.Owned() {
		parts[0].probes++
		parts[0].passNew--
	}
	next := 0
	deal := func(bound int, item []delta) {
		parts[next].front.push(bound, item)
		next = (next + 1) % n
	}
	var prefix []delta
	prefix = append(prefix, s.item...)
	for i, l := range s.stack {
		if l.Free {
			for r := s.nextRank(&l, l.Rank+1); r < l.N; r = s.nextRank(&l, r+1) {
				deal(s.bound, append(prefix[:len(prefix):len(prefix)], delta{s.base + i, r}))
			}
		}
		if l.Rank != 0 {
			prefix = append(prefix, delta{s.base + i, l.Rank})
		}
	}
	for b := 0; b < s.front.bounds(); b++ {
		for _, it := range s.front.items(b) {
			deal(b, it)
		}
	}
	out := make([][]byte, n)
	for i, p := range parts {
		var buf bytes.Buffer
		err := p.Save(&buf)
		p.front.close()
		if err != nil {
			return nil, err
		}
		out[i] = buf.Bytes()
	}
	return out, nil
}
