// Package fixed is CS.sync02_bad (see the parent directory) with the buffer
// starting empty, so the producer makes both items the consumer takes. It
// must pass in every schedule.
package fixed

import "sync"

// items is how many items each side produces or consumes (N in the original).
const items = 2

type state struct {
	m     sync.Mutex
	empty *sync.Cond
	full  *sync.Cond
	num   int
}

// Run starts the producer, then the consumer, and joins both. The buffer starts
// empty, so the consumer takes exactly the two items the producer makes.
func Run() {
	s := &state{num: 0}
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
