package svc

import "sync"

// Stats counts what the server did.
type Stats struct {
	mu      sync.Mutex
	done    int
	evicted int
	lines   int
}

func (s *Stats) jobDone() {
	s.mu.Lock()
	s.done++
	s.mu.Unlock()
}

func (s *Stats) addEvicted(n int) {
	s.mu.Lock()
	s.evicted += n
	s.mu.Unlock()
}

func (s *Stats) lineLogged() {
	s.mu.Lock()
	s.lines++
	s.mu.Unlock()
}

// Snapshot returns the jobs done, keys evicted and lines logged.
func (s *Stats) Snapshot() (done, evicted, lines int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done, s.evicted, s.lines
}
