// Package fixed is CS.phase01_bad (see the parent directory) with the bug
// fixed: every lock of x and y is released, so neither thread nor main's
// join blocks for ever.
package fixed

import (
	"sync"
	"testing"
)

type prog struct {
	x, y   sync.Mutex
	phases int // completed second phases, guarded by y
}

// Run starts both threads, joins them and checks both finished.
func Run(t testing.TB) {
	p := &prog{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			p.body()
		}()
	}
	wg.Wait()
	if p.phases != 2 {
		t.Errorf("%d threads finished, want 2", p.phases)
	}
}

func (p *prog) body() {
	p.x.Lock()
	p.x.Unlock()
	p.x.Lock()
	p.y.Lock()
	p.y.Unlock()
	p.x.Unlock() // the fix
	p.y.Lock()
	p.phases++
	p.y.Unlock()
}
