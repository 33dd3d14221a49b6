// Package fixed is CS.sync01_bad (see the parent directory) with thread2
// consuming the item (the original's commented-out `num--`), so thread1 can
// leave its wait loop. It must pass in every schedule.
package fixed

import "sync"

type state struct {
	m     sync.Mutex
	empty *sync.Cond
	full  *sync.Cond
	num   int
}

// Run starts thread1 and thread2 and joins them. thread2 consumes the
// item, which lets thread1 go on.
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
	s.num--
	s.m.Unlock()
	s.empty.Signal()
}
