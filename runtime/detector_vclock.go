package runtime

// Vector clocks for the happens-before race detector (detector.go).
// Goroutine ids are small and dense (creation order in the execution), so
// a clock is a slice indexed by id; a missing entry is 0.

// vclock is a vector clock: entry i is the last event of goroutine i known
// to happen before the owner's current event.
type vclock []uint32

//go:norace
func (v vclock) get(i int) uint32 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// set makes entry i equal c, growing v as needed.
//
//go:norace
func (v *vclock) set(i int, c uint32) {
	v.grow(i + 1)
	(*v)[i] = c
}

// join makes v the pointwise maximum of v and w.
//
//go:norace
func (v *vclock) join(w vclock) {
	v.grow(len(w))
	x := *v
	for i, c := range w {
		if c > x[i] {
			x[i] = c
		}
	}
}

// joinOwn makes v the pointwise maximum of the clocks vcs, indexed by
// goroutine id, in time linear in their number: no clock knows more of
// goroutine i's events than i's own (others learn them only from i's
// releases, copies of i's clock), so entry i of the maximum is vcs[i][i].
// Joining every clock one by one cost the square of the goroutines, at
// every receive from a channel closed out of the detector's sight (a
// context's Done): minutes per schedule for a test with thousands of
// goroutines.
//
//go:norace
func (v *vclock) joinOwn(vcs []vclock) {
	v.grow(len(vcs))
	x := *v
	for i, w := range vcs {
		if c := w.get(i); c > x[i] {
			x[i] = c
		}
	}
}

// grow makes v at least n entries long, the new ones 0. Clocks move
// between goroutines under the execution's lock, which Go's race detector
// does not see (docs/races.md): under -race, append's growslice and copy's
// slicecopy would report their reads and writes of a clock another
// goroutine made, so clocks are grown and copied by plain loops, which
// //go:norace keeps unseen.
//
//go:norace
func (v *vclock) grow(n int) {
	old := *v
	if n <= len(old) {
		return
	}
	if n <= cap(old) {
		x := old[:n]
		for i := len(old); i < n; i++ {
			x[i] = 0
		}
		*v = x
		return
	}
	x := make(vclock, n, max(n, 2*cap(old), 8))
	for i, c := range old {
		x[i] = c
	}
	*v = x
}

// copyFrom makes v equal w, in v's memory when it is large enough.
//
//go:norace
func (v *vclock) copyFrom(w vclock) {
	*v = (*v)[:0]
	v.grow(len(w))
	x := *v
	for i, c := range w {
		x[i] = c
	}
}

// epoch is one event of one goroutine, FastTrack's c@t: goroutine id in
// the high half, its clock in the low half. The zero epoch (clock 0) is
// "no access": it happens before everything.
type epoch uint64

//go:norace
func mkEpoch(id int, c uint32) epoch { return epoch(uint64(id)<<32 | uint64(c)) }

//go:norace
func (x epoch) id() int { return int(x >> 32) }

//go:norace
func (x epoch) clock() uint32 { return uint32(x) }

// before reports whether x happens before the event whose clock is v.
//
//go:norace
func (x epoch) before(v vclock) bool { return x.clock() <= v.get(x.id()) }
