package patterns

import (
	"sync/atomic"
	"testing"
)

// Accesses inside slice elements: a field of an element, an element of an
// array held in an element, a map held in an element, an atomic on an
// element. The slice header read on the way is rewritten first; the
// element's own access must still be seen.

type board struct {
	items  []pair
	grid   [][3]int
	counts []int64
	flags  []int32
	maps   []map[string]int
}

func TestSliceElementFieldThroughPointer(t *testing.T) {
	b := &board{items: make([]pair, 2)}
	race(func() {
		b.items[1].a = 1
	}, func() {
		_ = b.items[1].a
	})
}

func TestSliceElementFieldIncrement(t *testing.T) {
	b := &board{items: make([]pair, 2)}
	race(func() {
		b.items[0].b += 2
	}, func() {
		b.items[0].b++
	})
}

func bumpFirst(ps []pair) {
	ps[0].a++
}

func readFirst(ps []pair) int {
	return ps[0].a
}

func TestLocalSliceElementField(t *testing.T) {
	ps := make([]pair, 1)
	race(func() {
		bumpFirst(ps)
	}, func() {
		_ = readFirst(ps)
	})
}

func TestArrayInSliceElement(t *testing.T) {
	b := &board{grid: make([][3]int, 2)}
	race(func() {
		b.grid[1][2] = 5
	}, func() {
		_ = b.grid[1][2]
	})
}

func TestMapInSliceElement(t *testing.T) {
	b := &board{maps: []map[string]int{{}}}
	race(func() {
		b.maps[0]["k"] = 1
	}, func() {
		_ = b.maps[0]["k"]
	})
}

func TestAtomicOnSliceElementVsRead(t *testing.T) {
	b := &board{counts: make([]int64, 2)}
	race(func() {
		atomic.AddInt64(&b.counts[1], 1)
	}, func() {
		_ = b.counts[1]
	})
}

// No race: the flag, an element of a slice, is stored and loaded
// atomically, which orders the data.
func TestAtomicOnSliceElementOrders(t *testing.T) {
	b := &board{flags: make([]int32, 1)}
	data := 0
	race(func() {
		data = 1
		atomic.StoreInt32(&b.flags[0], 1)
	}, func() {
		if atomic.LoadInt32(&b.flags[0]) == 1 {
			_ = data
		}
	})
}
