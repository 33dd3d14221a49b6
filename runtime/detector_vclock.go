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
	for len(*v) <= i {
		*v = append(*v, 0)
	}
	(*v)[i] = c
}

// join makes v the pointwise maximum of v and w.
//
//go:norace
func (v *vclock) join(w vclock) {
	for len(*v) < len(w) {
		*v = append(*v, 0)
	}
	x := *v
	for i, c := range w {
		if c > x[i] {
			x[i] = c
		}
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
