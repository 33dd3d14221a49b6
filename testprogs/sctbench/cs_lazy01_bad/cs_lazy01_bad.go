// Package cs_lazy01_bad is a Go port of SCTBench's CS.lazy01_bad: two
// threads add 1 and 2 to a counter under a lock and a third asserts, under
// the same lock, that it has not reached 3. It fails whenever the checker
// runs last, which is also the round-robin order.
package cs_lazy01_bad

import (
	"sync"
	"testing"
)

// prog is the shared state.
type prog struct {
	mu   sync.Mutex
	data int
}

// Run starts the three threads and joins them.
func Run(t testing.TB) {
	p := &prog{}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); p.add(1) }()
	go func() { defer wg.Done(); p.add(2) }()
	go func() {
		defer wg.Done()
		p.mu.Lock()
		if p.data >= 3 {
			t.Errorf("data = %d, reached 3", p.data)
		}
		p.mu.Unlock()
	}()
	wg.Wait()
}

func (p *prog) add(n int) {
	p.mu.Lock()
	p.data += n
	p.mu.Unlock()
}
