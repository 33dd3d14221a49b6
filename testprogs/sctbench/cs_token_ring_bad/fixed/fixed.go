// Package fixed is CS.token_ring_bad (see the parent directory) with each of
// t2 and t3 waiting, on a condition variable, for its predecessor in the ring
// to have gone first. It must pass in every schedule.
package fixed

import (
	"sync"
	"testing"
)

type state struct {
	// atomic stands for ESBMC's __ESBMC_atomic_begin/end, which SCTBench
	// maps to one global mutex.
	atomic     sync.Mutex
	turn       *sync.Cond // signalled when a flag is set
	x1, x2, x3 int
	f1, f2, f3 bool
}

// Run starts t1..t4 in that order. The original main returns without
// joining; here Run joins at the end so that no goroutine outlives the test,
// which changes no interleaving that matters: main blocked in the join frees
// the schedule exactly as main having returned does.
func Run(t testing.TB) {
	s := &state{x1: 1, x2: 2, x3: 1}
	s.turn = sync.NewCond(&s.atomic)
	var wg sync.WaitGroup
	wg.Add(4)
	go func() {
		defer wg.Done()
		s.atomic.Lock()
		s.x1 = (s.x3 + 1) % 4
		s.f1 = true
		s.turn.Broadcast()
		s.atomic.Unlock()
	}()
	go func() {
		defer wg.Done()
		s.atomic.Lock()
		for !s.f1 {
			s.turn.Wait()
		}
		s.x2 = s.x1
		s.f2 = true
		s.turn.Broadcast()
		s.atomic.Unlock()
	}()
	go func() {
		defer wg.Done()
		s.atomic.Lock()
		for !s.f2 {
			s.turn.Wait()
		}
		s.x3 = s.x2
		s.f3 = true
		s.atomic.Unlock()
	}()
	go func() {
		defer wg.Done()
		s.atomic.Lock()
		if s.f1 && s.f2 && s.f3 {
			if !(s.x1 == s.x2 && s.x2 == s.x3) {
				t.Errorf("token ring out of order: x1=%d x2=%d x3=%d", s.x1, s.x2, s.x3)
			}
		}
		s.atomic.Unlock()
	}()
	wg.Wait()
}
