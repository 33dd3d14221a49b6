// Package cs_deadlock01_bad is a Go port of SCTBench's CS.deadlock01_bad:
// two threads take locks a and b in opposite orders (AB-BA), so each can
// hold one and wait for the other for ever.
package cs_deadlock01_bad

import "sync"

// prog is the shared state.
type prog struct {
	a, b    sync.Mutex
	counter int
}

// Run starts both threads and joins them.
func Run() {
	p := &prog{counter: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.a.Lock()
		p.b.Lock()
		p.counter++
		p.b.Unlock()
		p.a.Unlock()
	}()
	go func() {
		defer wg.Done()
		p.b.Lock()
		p.a.Lock()
		p.counter--
		p.a.Unlock()
		p.b.Unlock()
	}()
	wg.Wait()
}
