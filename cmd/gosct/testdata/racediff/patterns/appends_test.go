package patterns

import "testing"

// append writes past the slice's length in its array, which other slices
// may share, and reads the slice's elements when it grows into a new one.

func appendOne(xs []int) []int {
	return append(xs, 1)
}

func appendAll(xs, ys []int) []int {
	return append(xs, ys...)
}

func setFirst(xs []int) {
	xs[0] = 7
}

func TestAppendSameArray(t *testing.T) {
	base := make([]int, 0, 4)
	race(func() {
		_ = appendOne(base)
	}, func() {
		_ = appendOne(base)
	})
}

func TestAppendGrowReadsOld(t *testing.T) {
	full := []int{1, 2}
	race(func() {
		setFirst(full)
	}, func() {
		_ = appendOne(full)
	})
}

func TestAppendSliceReadsSource(t *testing.T) {
	src := []int{1, 2}
	dst := make([]int, 0, 4)
	race(func() {
		setFirst(src)
	}, func() {
		_ = appendAll(dst, src)
	})
}

func TestAppendStringIntoShared(t *testing.T) {
	buf := make([]byte, 0, 8)
	race(func() {
		_ = append(buf[:0:8], "ab"...)
	}, func() {
		_ = append(buf[:0:8], "cd"...)
	})
}
