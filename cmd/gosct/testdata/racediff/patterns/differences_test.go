package patterns

import "testing"

// Races of the shapes docs/races.md lists as differences with Go's
// detector: those still open are in knownTSanOnly (racediff_test.go), so
// that closing one shows.

type rows struct {
	cells []int
	fixed [4]int
}

func (r *rows) all() []int { return r.cells }

// A range over a slice reads its elements, whatever the range
// expression: a field, a call's result, a `=` range, a slice the body
// reassigns, a pointer to an array (gosct reports these: they were
// differences once).

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

type cursor struct{ i int }

// A `=` range whose key is not a local variable reads its elements too:
// a field, a map element, a pointer's target (gosct counts the
// iterations rather than read the key again, an access the program does
// not make).
func TestRangeNonLocalKey(t *testing.T) {
	cells := make([]int, 4)
	race(func() {
		cells[2] = 1
	}, func() {
		var cur cursor
		var c int
		for cur.i, c = range cells {
			_ = c
		}
	})
}

func TestRangeMapElementKey(t *testing.T) {
	cells := make([]int, 4)
	race(func() {
		cells[2] = 1
	}, func() {
		keys := map[string]int{}
		var c int
		for keys["k"], c = range cells {
			_ = c
		}
	})
}

func TestRangePointerKey(t *testing.T) {
	cells := make([]int, 4)
	race(func() {
		cells[2] = 1
	}, func() {
		var i, c int
		p := &i
		for *p, c = range cells {
			_ = c
		}
	})
}
