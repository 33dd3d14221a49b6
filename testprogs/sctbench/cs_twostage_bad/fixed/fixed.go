// Package fixed is CS.twostage_bad (see the parent directory) with funcA
// holding d1 through both stages and funcB holding d1 while it reads data2
// (lock order d1 then d2 everywhere). It must pass in every schedule.
package fixed

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
	s.d2.Lock()
	s.data2 = s.data1 + 1
	s.d2.Unlock()
	s.d1.Unlock()
}

func funcB(s *state, t testing.TB) {
	s.d1.Lock()
	if s.data1 == 0 {
		s.d1.Unlock()
		return
	}
	t1 := s.data1
	s.d2.Lock()
	t2 := s.data2
	s.d2.Unlock()
	s.d1.Unlock()

	if t2 != t1+1 {
		t.Errorf("bug found: data1=%d but data2=%d", t1, t2)
	}
}
