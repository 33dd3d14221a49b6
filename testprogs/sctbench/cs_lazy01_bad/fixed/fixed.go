// Package fixed is CS.lazy01_bad (see the parent directory) with the
// checker's assertion corrected: under the lock, data is the sum of the
// additions done so far, one of 0, 1, 2 or 3; after the joins it is 3.
package fixed

import (
	"sync"
	"testing"
)

type prog struct {
	mu   sync.Mutex
	data int
}

// Run starts the three threads, joins them and checks the total.
func Run(t testing.TB) {
	p := &prog{}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); p.add(1) }()
	go func() { defer wg.Done(); p.add(2) }()
	go func() {
		defer wg.Done()
		p.mu.Lock()
		if p.data < 0 || p.data > 3 {
			t.Errorf("data = %d, want 0..3", p.data)
		}
		p.mu.Unlock()
	}()
	wg.Wait()
	if p.data != 3 {
		t.Errorf("data = %d after the joins, want 3", p.data)
	}
}

func (p *prog) add(n int) {
	p.mu.Lock()
	p.data += n
	p.mu.Unlock()
}
