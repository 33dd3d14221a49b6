// Package cs_wronglock_bad ports CS.wronglock_bad from SCTBench (ESBMC suite):
// funcA increments dataValue under dataLock and checks the increment, while
// the funcB goroutines increment it under a different lock (thisLock), so an
// increment can land between funcA's read and its check.
package cs_wronglock_bad

import (
	"sync"
	"testing"
)

// Thread counts of the SCTBench configuration.
const (
	numA = 1
	numB = 7
)

type state struct {
	dataLock, thisLock *sync.Mutex
	dataValue          int
}

// Run starts the funcA goroutine first, then the funcB goroutines, and joins
// them all.
func Run(t testing.TB) {
	s := &state{dataLock: new(sync.Mutex), thisLock: new(sync.Mutex)}
	var wg sync.WaitGroup
	wg.Add(numA + numB)
	for i := 0; i < numA; i++ {
		go func() {
			defer wg.Done()
			funcA(s, t)
		}()
	}
	for i := 0; i < numB; i++ {
		go func() {
			defer wg.Done()
			funcB(s)
		}()
	}
	wg.Wait()
}

func funcA(s *state, t testing.TB) {
	s.dataLock.Lock()
	x := s.dataValue
	s.dataValue = s.dataValue + 1 // a separate read and write, as in C
	if s.dataValue != x+1 {
		t.Errorf("bug found: dataValue=%d, expected %d", s.dataValue, x+1)
	}
	s.dataLock.Unlock()
}

func funcB(s *state) {
	s.thisLock.Lock() // the wrong lock: funcA holds dataLock
	s.dataValue = s.dataValue + 1
	s.thisLock.Unlock()
}
