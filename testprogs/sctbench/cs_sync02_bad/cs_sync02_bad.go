// Package cs_sync02_bad ports CS.sync02_bad from SCTBench (ESBMC suite): a
// producer/consumer over one counter and two condition variables where the
// buffer starts full, so the producer ends up waiting for ever in every
// schedule.
package cs_sync02_bad

import "sync"

// items is how many items each side produces or consumes (N in the original).
const items = 2

type state struct {
	m     sync.Mutex
	empty *sync.Cond
	full  *sync.Cond
	num   int
}

// Run starts the producer, then the consumer, and joins both. The consumer
// drains the two initial items and exits; the producer makes one item and
// then waits for num to drop to 0, which never happens: a deadlock.
func Run() {
	s := &state{num: 2}
	s.empty = sync.NewCond(&s.m)
	s.full = sync.NewCond(&s.m)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		producer(s)
	}()
	go func() {
		defer wg.Done()
		consumer(s)
	}()
	wg.Wait()
}

func producer(s *state) {
	for i := 0; i < items; i++ {
		s.m.Lock()
		for s.num > 0 {
			s.empty.Wait()
		}
		s.num++
		s.m.Unlock()
		s.full.Signal()
	}
}

func consumer(s *state) {
	for i := 0; i < items; i++ {
		s.m.Lock()
		for s.num == 0 {
			s.full.Wait()
		}
		s.num--
		s.m.Unlock()
		s.empty.Signal()
	}
}
