// Package cs_sync01_bad ports CS.sync01_bad from SCTBench (ESBMC suite): a
// two-condition-variable handshake whose shared counter starts at a value
// that the first goroutine can never leave its wait loop on, so every
// schedule deadlocks.
package cs_sync01_bad

import "sync"

type state struct {
	m     sync.Mutex
	empty *sync.Cond
	full  *sync.Cond
	num   int
}

// Run starts thread1 and thread2 and joins them. It never returns: thread1
// waits on empty while num stays 1 (the decrement in thread2 is missing, as
// in the original), and Run blocks in the join.
func Run() {
	s := &state{num: 1}
	s.empty = sync.NewCond(&s.m)
	s.full = sync.NewCond(&s.m)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		thread1(s)
	}()
	go func() {
		defer wg.Done()
		thread2(s)
	}()
	wg.Wait()
}

func thread1(s *state) {
	s.m.Lock()
	for s.num > 0 {
		s.empty.Wait()
	}
	s.num++
	s.m.Unlock()
	s.full.Signal()
}

func thread2(s *state) {
	s.m.Lock()
	for s.num == 0 {
		s.full.Wait()
	}
	// The original has the consuming "num--" commented out: this is the bug.
	s.m.Unlock()
	s.empty.Signal()
}
