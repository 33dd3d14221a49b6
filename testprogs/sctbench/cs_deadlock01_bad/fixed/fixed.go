// Package fixed is CS.deadlock01_bad (see the parent directory) with the bug
// fixed: both threads take the locks in the same order, a then b.
package fixed

import (
	"sync"
	"testing"
)

type prog struct {
	a, b    sync.Mutex
	counter int
}

// Run starts both threads, joins them and checks the counter.
func Run(t testing.TB) {
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
		p.a.Lock()
		p.b.Lock()
		p.counter--
		p.b.Unlock()
		p.a.Unlock()
	}()
	wg.Wait()
	if p.counter != 1 {
		t.Errorf("counter = %d, want 1", p.counter)
	}
}
