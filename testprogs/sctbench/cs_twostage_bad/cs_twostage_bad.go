// Package cs_twostage_bad ports CS.twostage_bad from SCTBench (ESBMC suite):
// funcA publishes data1 and then derives data2 from it under a second lock;
// funcB reads both under their locks and checks data2 == data1+1, which fails
// when it runs between some funcA's two stages.
package cs_twostage_bad

import (
	"sync"
	"testing"
)

// Thread counts of the SCTBench configuration.
const (
	numA = 1
	numB = 1
)

type state struct {
	d1, d2       *sync.Mutex
	data1, data2 int
}

// Run starts numA funcA goroutines, then numB funcB goroutines, and joins
// them all.
func Run(t testing.TB) {
	s := &state{d1: new(sync.Mutex), d2: new(sync.Mutex)}
	var wg sync.WaitGroup
	wg.Add(numA + numB)
	for i := 0; i < numA; i++ {
		go func() {
			defer wg.Done()
			funcA(s)
		}()
	}
	for i := 0; i < numB; i++ {
		go func() {
			defer wg.Done()
			funcB(s, t)
		}()
	}
	wg.Wait()
}

func funcA(s *state) {
	s.d1.Lock()
	s.data1 = 1
	s.d1.Unlock()

	s.d2.Lock()
	s.data2 = s.data1 + 1 // data1 read without d1, as in the original
	s.d2.Unlock()
}

func funcB(s *state, t testing.TB) {
	s.d1.Lock()
	if s.data1 == 0 {
		s.d1.Unlock()
		return
	}
	t1 := s.data1
	s.d1.Unlock()

	s.d2.Lock()
	t2 := s.data2
	s.d2.Unlock()

	if t2 != t1+1 {
		t.Errorf("bug found: data1=%d but data2=%d", t1, t2)
	}
}
