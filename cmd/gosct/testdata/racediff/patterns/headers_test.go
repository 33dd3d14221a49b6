package patterns

import "testing"

// The variable read on the way to the memory accessed: the pointer of p.f
// and *p, the map variable of m[k], delete(m, k) and a range over m. A
// goroutine that assigns the variable races with one that goes through it.

var current = &pair{}

func TestPointerReassignVsFieldRead(t *testing.T) {
	race(func() {
		current = &pair{a: 1}
	}, func() {
		_ = current.a
	})
}

func TestCapturedPointerReassignVsDeref(t *testing.T) {
	p := new(int)
	race(func() {
		p = new(int)
	}, func() {
		_ = *p
	})
}

func TestCapturedPointerReassignVsFieldWrite(t *testing.T) {
	p := &pair{}
	race(func() {
		p = &pair{}
	}, func() {
		p.b = 2
	})
}

type registry struct {
	m map[string]int
}

func TestMapFieldReassignVsIndex(t *testing.T) {
	r := &registry{m: map[string]int{}}
	race(func() {
		r.m = map[string]int{}
	}, func() {
		_ = r.m["k"]
	})
}

func TestMapFieldReassignVsDelete(t *testing.T) {
	r := &registry{m: map[string]int{}}
	race(func() {
		r.m = map[string]int{}
	}, func() {
		delete(r.m, "k")
	})
}

func TestMapFieldReassignVsRange(t *testing.T) {
	r := &registry{m: map[string]int{"a": 1}}
	race(func() {
		r.m = nil
	}, func() {
		for range r.m {
		}
	})
}
