// Package cs_din_phil6_sat is a Go port of SCTBench's CS.din_phil6_sat: 6 dining
// philosophers take their forks inside an atomic section, then increment a
// shared counter outside any lock; the last one to finish asserts that the
// counter has not reached 6. "sat" means the assertion is reachable: it
// fails unless an increment is lost, so almost every schedule fails.

package cs_din_phil6_sat

import (
	"sync"
	"testing"
)

// n is the number of philosophers (and forks).
const n = 6

// table is the shared state; atomic stands for ESBMC's atomic sections.
type table struct {
	atomic sync.Mutex
	forks  [n]sync.Mutex
	phil   int // philosophers done eating, incremented without a lock
}

// Run seats the philosophers with ids 0..n-1 and joins them.
func Run(t testing.TB) {
	p := &table{}
	var wg sync.WaitGroup
	for id := 0; id < n; id++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			p.philosopher(t, id)
		}(id)
	}
	wg.Wait()
}

func (p *table) philosopher(t testing.TB, id int) {
	left, right := id, (id+1)%n

	p.atomic.Lock()
	p.forks[right].Lock()
	p.forks[left].Lock()
	p.forks[left].Unlock()
	p.forks[right].Unlock()
	p.atomic.Unlock()

	p.phil++
	if p.phil == n {
		t.Errorf("all %d philosophers ate", n)
	}
}
