package methodvalues

import "sync"

type S struct{ mu sync.Mutex }

func Values(mu *sync.Mutex, s *S, wg *sync.WaitGroup) {
	f := mu.Lock
	g := s.mu.Unlock
	var m sync.Mutex
	h := m.TryLock
	add := wg.Add
	f()
	g()
	_ = h()
	add(1)
	run(mu.Unlock)
}

func run(f func()) { f() }
