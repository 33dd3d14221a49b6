// Package lockcycle has a cycle of three locks, one of its orders through
// a call: no two goroutines deadlock, three do.
package lockcycle

import "sync"

type hub struct {
	a, b, c sync.Mutex
	n       int
}

func (h *hub) takeB() {
	h.b.Lock() // line 13
	h.n++
	h.b.Unlock()
}

func (h *hub) ab() {
	h.a.Lock() // line 19
	h.takeB()
	h.a.Unlock()
}

func (h *hub) bc() {
	h.b.Lock() // line 25
	h.c.Lock() // line 26
	h.n++
	h.c.Unlock()
	h.b.Unlock()
}

func (h *hub) ca() {
	h.c.Lock() // line 33
	h.a.Lock() // line 34
	h.n++
	h.a.Unlock()
	h.c.Unlock()
}
