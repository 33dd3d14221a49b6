// Package poly is the thesis's example of polymorphic calls (Fig. 4.5):
// test calls x.aa() through an interface; Y's aa calls Y.cc, where the
// target is, and Z's does not.
package poly

import "sync"

type X interface{ aa() }

type Y struct{ mu sync.Mutex }
type Z struct{ mu sync.Mutex }

func (y *Y) aa() { y.cc() }

func (y *Y) cc() {
	y.mu.Lock()
	y.mu.Unlock()
	panic("target") // line 18
}

func (z *Z) aa() {
	z.mu.Lock()
	z.mu.Unlock()
}

var shared int

func test(x X) {
	shared = 1 // a scheduling point: one step before the call
	x.aa()     // line 30
}

func run() {
	test(&Y{})
	test(&Z{})
}
