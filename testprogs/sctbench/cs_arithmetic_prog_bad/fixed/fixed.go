// Package fixed is CS.arithmetic_prog_bad (see the parent directory) with
// the assertion corrected: a producer and a consumer hand three items over
// through a mutex and two condition variables, and main asserts the sum that
// every complete run produces.
package fixed

import (
	"sync"
	"testing"
)

// n is the number of items handed over.
const n = 3

// prog is the shared state: a one-slot counter with its condition variables.
type prog struct {
	m     sync.Mutex
	empty *sync.Cond // signalled when num drops to 0
	full  *sync.Cond // signalled when num becomes positive
	num   int
	total uint64
	flag  bool
}

// Run runs the producer and the consumer, joins them and checks the total.
func Run(t testing.TB) {
	p := &prog{}
	p.empty = sync.NewCond(&p.m)
	p.full = sync.NewCond(&p.m)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.producer() }()
	go func() { defer wg.Done(); p.consumer() }()
	wg.Wait()

	if p.flag {
		if p.total != n*(n+1)/2 {
			t.Errorf("total = %d, want n(n+1)/2 = %d", p.total, n*(n+1)/2)
		}
	}
}

func (p *prog) producer() {
	for i := 0; i < n; i++ {
		p.m.Lock()
		for p.num > 0 {
			p.empty.Wait()
		}
		p.num++
		p.m.Unlock()
		p.full.Signal() // after unlocking, as in the C program
	}
}

func (p *prog) consumer() {
	j := 0
	for ; j < n; j++ {
		p.m.Lock()
		for p.num == 0 {
			p.full.Wait()
		}
		p.total += uint64(j)
		p.num--
		p.m.Unlock()
		p.empty.Signal()
	}
	p.total += uint64(j)
	p.flag = true
}
