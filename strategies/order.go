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
// The Clock choice, when offered, is the second child: firing a timer
// before the round-robin choice runs costs one delay, as holding back the
// current goroutine for one other does (and one preemption when the current
// goroutine could go on). The round-robin scheduler never fires a timer
// early: its timers fire when every goroutine is blocked.
//
// At a Yield point the current goroutine is left out when another
// goroutine is enabled: as in SCTBench, a yield forces a switch (for free) so
// that a spin loop cannot make a systematic search infinite. That is
// unsound for bugs that need a yield not to switch, a price the paper also
// paid. The clock does not count as another goroutine there.
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
	gs := len(p.Choices) // the goroutine choices: all but a trailing Clock
	clock := p.HasClock()
	if clock {
		gs--
	}
	cur := p.Index(p.Current)
	skipCur := p.Yield && gs > 1
	if cur >= 0 && !skipCur {
		dst = append(dst, cur)
	}
	// Choices are ascending, so the ids above Current come first in slice
	// order, then the ids below it.
	for i, c := range p.Choices[:gs] {
		if c > p.Current {
			dst = append(dst, i)
		}
	}
	for i, c := range p.Choices[:gs] {
		if c < p.Current {
			dst = append(dst, i)
		}
	}
	if clock {
		dst = append(dst, 0)
		if len(dst) > 2 {
			copy(dst[2:], dst[1:len(dst)-1])
		}
		dst[min(1, len(dst)-1)] = gs
	}
	return dst
}

// currentRuns reports whether the current goroutine is among the children of
// p, that is whether switching away from it at p is a preemption.
func currentRuns(p *Point) bool {
	if p.Kind != Goroutine || p.Index(p.Current) < 0 {
		return false
	}
	gs := len(p.Choices)
	if p.HasClock() {
		gs--
	}
	return !(p.Yield && gs > 1)
}
