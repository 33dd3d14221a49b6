package strategies

// mapleOrder fills dst with the indices into p.Choices in the order the
// systematic strategies try them, and returns it.
//
// For Kind Goroutine the order is Maple's (and the round-robin scheduler's
// that delay bounding counts against): the current goroutine first if it is
// enabled, then the other enabled goroutines in creation order, ascending
// from the current id and wrapping around. The first child is therefore the
// non-preemptive round-robin choice, and for delay bounding the rank of a
// child in this order is exactly the number of delays it costs.
//
// At a Yield point the current goroutine is left out when anything else is
// enabled: as in SCTBench, a yield forces a switch (for free) so that a spin
// loop cannot make a systematic search infinite. That is unsound for bugs
// that need a yield not to switch, a price the paper also paid.
//
// For Kind Case the order is ascending case index.
func mapleOrder(p *Point, dst []int) []int {
	dst = dst[:0]
	if p.Kind != Goroutine {
		for i := range p.Choices {
			dst = append(dst, i)
		}
		return dst
	}
	cur := p.Index(p.Current)
	skipCur := p.Yield && len(p.Choices) > 1
	if cur >= 0 && !skipCur {
		dst = append(dst, cur)
	}
	// Choices are ascending, so the ids above Current come first in slice
	// order, then the ids below it.
	for i, c := range p.Choices {
		if c > p.Current {
			dst = append(dst, i)
		}
	}
	for i, c := range p.Choices {
		if c < p.Current {
			dst = append(dst, i)
		}
	}
	return dst
}

// currentRuns reports whether the current goroutine is among the children of
// p, that is whether switching away from it at p is a preemption.
func currentRuns(p *Point) bool {
	return p.Kind == Goroutine && p.Index(p.Current) >= 0 && !(p.Yield && len(p.Choices) > 1)
}
