// Implicit accesses and the types whose variables get shadow-only
// accesses (race-checked, not scheduling points).
package implicit

import (
	"context"
	"sync/atomic"
)

type server struct {
	stopCh  chan struct{}
	onClose func()
	ctx     context.Context
	n       atomic.Int64
	count   int
}

func (s *server) start() {
	s.stopCh = make(chan struct{})
	s.onClose = func() {}
	go func() {
		<-s.stopCh
		s.onClose()
	}()
}

// named results read by a bare return, written by a return with values,
// where a closure shares them.
func named() (err error, n int) {
	done := make(chan bool)
	go func() {
		err = nil
		n++
		close(done)
	}()
	<-done
	if n > 1 {
		return nil, n
	}
	return
}

// a range's variables written by the loop where they are shared: with =
// in any version.
func assignRange(xs []int) int {
	var v int
	go func() { _ = v }()
	for _, v = range xs {
	}
	return v
}

func atomics(p *int32, s *server) bool {
	atomic.StoreInt32(p, 1)
	s.n.Store(2)
	_ = atomic.AddInt32(p, 1)
	return atomic.CompareAndSwapInt32(p, 2, 3) && s.n.CompareAndSwap(2, 3)
}

type IDs []int

// append writes past the slice's length in its array, or reads the slice
// when it grows: shadow-only, whatever holds the slice.
func appends(xs IDs, ys []int, b []byte, errs []error, e *myErr) (IDs, []int, []byte, []error) {
	xs = append(xs, 1, 2)
	ys = append(ys, xs...)
	b = append(b, "abc"...)
	errs = append(errs, e)
	_ = append(ys)
	return xs, ys, b, errs
}

type myErr struct{}

// A named string type (protobuf's protoreflect.FullName) is converted to
// the string the hooks take; where string is shadowed, the call is left
// alone.
type fullName string

func namedStrings(b []byte, n fullName) ([]byte, int) {
	b = append(b, n...)
	k := copy(b, n)
	return b, k
}

func shadowedString(b []byte, n fullName) []byte {
	string := 1
	_ = string
	return append(b, n...)
}

func (*myErr) Error() string { return "" }

type leaf struct{ n int }

func (l leaf) get() int   { return l.n }
func (l *leaf) set(n int) { l.n = n }

type mid struct{ leaf }

type top struct {
	mid
	*leafPtr
}

type leafPtr struct{ m int }

func (l leafPtr) val() int { return l.m }

// a value-receiver method promoted through embedded fields copies the
// last one on the path.
func promoted(p *top) int {
	p.set(1)
	return p.get() + p.val() + p.mid.get()
}

type rows struct {
	cells []int
	fixed [4]int
}

func (r *rows) all() []int { return r.cells }

// a range reads its elements from the value it evaluated once: a field, a
// call's result, a slice the body reassigns, a `=` range, a pointer to an
// array are evaluated into gosct_xs first.
func rangeElements(r *rows, xs []int) int {
	s := 0
	for _, c := range r.cells {
		s += c
	}
	for i, c := range r.all() {
		s += i * c
	}
	for _, c := range xs {
		if c < 0 {
			xs = nil
		}
	}
	var c int
	for _, c = range r.cells {
		s += c
	}
	var i int
L:
	for i, c = range &r.fixed {
		if c > 0 {
			continue L
		}
	}
	return s + i
}

// a range whose key or value variable is named as the slice it ranges
// over (tidwall/gjson's GetMany: `for i, path := range path`) shadows it
// in the body: the slice is evaluated into gosct_xs first.
func rangeShadowed(path []string, keys []int) int {
	s := 0
	for i, path := range path {
		s += i + len(path)
	}
	for keys, k := range keys {
		s += keys * k
	}
	return s
}

type cursor struct{ i int }

// a `=` range whose key is not a local of the goroutine (a field, a map
// element, a pointer's target) reads its elements through a counter.
func rangeNonLocalKey(xs []int, keys map[string]int, p *int) int {
	var cur cursor
	s := 0
	var c int
	for cur.i, c = range xs {
		s += c
	}
	for keys["k"], c = range xs {
		if c < 0 {
			continue
		}
		s += c
	}
Outer:
	for *p, c = range xs {
		for _, d := range xs {
			if d > c {
				continue Outer
			}
		}
		s += c
	}
	return s + cur.i
}
