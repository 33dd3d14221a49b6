package confirm

import (
	"context"
	"fmt"
	"math/bits"
)

// A minimized schedule can still depart from Go's own order in hundreds of
// places (a test whose subtests each start goroutines, a schedule the
// minimizer's budget left long), and a patch of hundreds of inserted
// lines shows a maintainer nothing. Most of those holds do not matter:
// the bug needs one or two of them. So once a way confirms the bug,
// reduce looks for fewer holds that still confirm it, by go test runs, as
// delta debugging does (Zeller and Hildebrandt's ddmin): keep a part of
// the holds, or drop one, and see whether go test still fails the same
// way often enough.

// reduceAbove is the number of holds above which a confirmation is
// reduced: up to it, the patch is short enough to read as it is.
const reduceAbove = 3

// reduce returns a confirmation with as few of best's holds as it finds
// within opts.ReduceTries attempts of go test (by default 8, and 2 more per
// halving the holds allow: 30 for 1787 holds), each in best's way and
// failing the same way in at least half as many runs as best did. It
// keeps best when nothing smaller does, and stops at ctx's end with what
// it has: a confirmation already made is never lost to the bound.
func (c *confirmer) reduce(ctx context.Context, best *try) (*try, []Attempt) {
	tries := c.opts.ReduceTries
	if tries == 0 {
		tries = 8 + 2*bits.Len(uint(len(best.holds)))
	}
	if len(best.holds) <= reduceAbove || tries < 0 {
		return best, nil
	}
	var tried []Attempt
	holds := best.holds
	kept := best
	works := func(keep []int) bool {
		if ctx.Err() != nil {
			return false
		}
		sub := make([]Hold, len(keep))
		for i, k := range keep {
			sub[i] = holds[k]
		}
		c.opts.Progress(fmt.Sprintf("reducing the delays: %d of %d", len(sub), len(holds)))
		tr := c.attempt(ctx, sub, best.How)
		if ctx.Err() != nil {
			return false // cut short: says nothing about these holds
		}
		tr.Reducing = true
		tried = append(tried, tr.Attempt)
		if tr.Err != "" || tr.Same == 0 || 2*tr.Same*best.Runs < best.Same*tr.Runs {
			return false
		}
		kept = tr
		return true
	}
	shrink(len(holds), works, tries)
	return kept, tried
}

// shrink finds a small subset of the indexes 0..n-1 for which works
// holds, given that it holds for all of them, calling works at most tries
// times: ddmin's partitions (keep one part, else drop one part), with the
// partition refined when neither helps. It returns the smallest subset
// that worked; works is called with sorted indexes.
//
// The last index alone is tried first, and the later parts before the
// earlier: in a schedule minimized up to its bug, the departure that
// matters is most often the last before it, and the ones long before it
// belong to what the test did earlier (other subtests, say).
func shrink(n int, works func(keep []int) bool, tries int) []int {
	cur := make([]int, n)
	for i := range cur {
		cur[i] = i
	}
	if n > 2 && tries > 0 {
		tries--
		if last := cur[n-1:]; works(last) {
			return last
		}
	}
	parts := 2
	for len(cur) > 1 && tries > 0 {
		chunks := split(cur, parts)
		reduced := false
		// A part alone first: one part in a few holds the bug needs.
		for i := len(chunks) - 1; i >= 0; i-- {
			ch := chunks[i]
			if tries == 0 {
				return cur
			}
			tries--
			if works(ch) {
				cur, parts, reduced = ch, 2, true
				break
			}
		}
		if !reduced && parts > 2 {
			for i := range chunks {
				if tries == 0 {
					return cur
				}
				rest := complement(chunks, i)
				tries--
				if works(rest) {
					cur, parts, reduced = rest, max(parts-1, 2), true
					break
				}
			}
		}
		if !reduced {
			if parts >= len(cur) {
				return cur
			}
			parts = min(2*parts, len(cur))
		}
	}
	return cur
}

// split cuts s into parts pieces of nearly equal length.
func split(s []int, parts int) [][]int {
	out := make([][]int, 0, parts)
	for i := 0; i < parts; i++ {
		lo, hi := i*len(s)/parts, (i+1)*len(s)/parts
		if lo < hi {
			out = append(out, s[lo:hi])
		}
	}
	return out
}

// complement is every chunk but the i-th, in order.
func complement(chunks [][]int, i int) []int {
	var out []int
	for j, ch := range chunks {
		if j != i {
			out = append(out, ch...)
		}
	}
	return out
}
