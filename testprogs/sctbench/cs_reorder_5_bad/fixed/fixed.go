// Package fixed is CS.reorder_5_bad (see the parent directory) with the
// bug fixed: each setter writes a and b in one critical section and each
// checker reads them in one, so no checker sees one write without the other.
package fixed

import (
	"sync"
	"testing"
)

const (
	setters  = 4
	checkers = 1
)

// prog is the shared state.
type prog struct {
	mu   sync.Mutex
	a, b int
}

// Run creates all setters, then all checkers, and joins them in the same
// order.
func Run(t testing.TB) {
	p := &prog{}
	var setWG, checkWG sync.WaitGroup
	for i := 0; i < setters; i++ {
		setWG.Add(1)
		go func() {
			defer setWG.Done()
			p.set()
		}()
	}
	for i := 0; i < checkers; i++ {
		checkWG.Add(1)
		go func() {
			defer checkWG.Done()
			p.check(t)
		}()
	}
	setWG.Wait()
	checkWG.Wait()
}

func (p *prog) set() {
	p.mu.Lock()
	p.a = 1
	p.b = -1
	p.mu.Unlock()
}

// check evaluates (a == 0 && b == 0) || (a == 1 && b == -1) under the lock.
func (p *prog) check(t testing.TB) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !((p.a == 0 && p.b == 0) || (p.a == 1 && p.b == -1)) {
		t.Errorf("saw a = %d, b = %d", p.a, p.b)
	}
}
