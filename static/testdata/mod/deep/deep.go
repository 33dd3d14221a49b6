// Package deep has a target behind calls and a loop, to check the
// distances counted across them.
package deep

import "sync"

type s struct {
	mu sync.Mutex
	x  int
}

func (v *s) step() { // through: 3 scheduling points (lock, write x, unlock)
	v.mu.Lock()
	v.x++
	v.mu.Unlock()
}

func (v *s) twice() {
	v.step() // line 19
	v.step() // line 20
}

func (v *s) fail() {
	panic("bad") // line 24
}

func run(v *s) {
	v.twice() // line 28
	v.fail()  // line 29
}
