package patterns

import (
	"context"
	"testing"
)

// The races Go's detector reports on these tests' first schedule and
// gosct's does not: the differences docs/races.md lists, each in
// knownTSanOnly (racediff_test.go), so that closing one shows.

type rows struct {
	cells []int
	fixed [4]int
}

func (r *rows) all() []int { return r.cells }

// A range over a slice reads its elements. gosct shadows that read only
// for a slice variable the loop does not assign, ranged over with `:=`:
// not for a field, a call's result, a `=` range, a slice the body
// reassigns, or a pointer to an array.

func TestRangeOverFieldReadsElements(t *testing.T) {
	r := &rows{cells: make([]int, 4)}
	race(func() {
		r.cells[2] = 1
	}, func() {
		for _, c := range r.cells {
			_ = c
		}
	})
}

func TestRangeOverCallReadsElements(t *testing.T) {
	r := &rows{cells: make([]int, 4)}
	race(func() {
		r.cells[2] = 1
	}, func() {
		for _, c := range r.all() {
			_ = c
		}
	})
}

func TestRangeAssignReadsElements(t *testing.T) {
	cells := make([]int, 4)
	race(func() {
		cells[2] = 1
	}, func() {
		var i, c int
		for i, c = range cells {
			_, _ = i, c
		}
	})
}

func TestRangeReassignedSliceReadsElements(t *testing.T) {
	cells := make([]int, 4)
	race(func() {
		cells[2] = 1
	}, func() {
		for _, c := range cells {
			if c < 0 {
				cells = nil
			}
		}
	})
}

func TestRangeOverArrayPointerReadsElements(t *testing.T) {
	r := &rows{}
	race(func() {
		r.fixed[2] = 1
	}, func() {
		for _, c := range &r.fixed {
			_ = c
		}
	})
}

// A receive that sees a close the model did not make (context's own
// cancel closes Done) joins every goroutine's clock in gosct's detector,
// so the write of the first goroutine looks ordered before the read.
func TestCancelOrdersOnlyTheCanceller(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	race(func() {
		x = 1
	}, func() {
		go cancel()
		<-ctx.Done()
		_ = x
	})
}
