// Package fixed is CS.din_phil6_sat (see the parent directory) made
// correct: each philosopher counts its meal inside the atomic section, and
// main checks after the joins that all 6 ate exactly once.
package fixed

import (
	"sync"
	"testing"
)

const n = 6

type table struct {
	atomic sync.Mutex
	forks  [n]sync.Mutex
	phil   int // guarded by atomic
}

// Run seats the philosophers with ids 0..n-1, joins them and counts meals.
func Run(t testing.TB) {
	p := &table{}
	var wg sync.WaitGroup
	for id := 0; id < n; id++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			p.philosopher(id)
		}(id)
	}
	wg.Wait()
	if p.phil != n {
		t.Errorf("%d meals counted, want %d", p.phil, n)
	}
}

func (p *table) philosopher(id int) {
	left, right := id, (id+1)%n
	p.atomic.Lock()
	p.forks[right].Lock()
	p.forks[left].Lock()
	p.phil++
	p.forks[left].Unlock()
	p.forks[right].Unlock()
	p.atomic.Unlock()
}
