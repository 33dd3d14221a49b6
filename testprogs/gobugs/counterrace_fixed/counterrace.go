// Package counterrace is the fixed version: the counters are guarded by a
// mutex.
package counterrace

import "sync"

// Stats counts requests.
type Stats struct {
	mu     sync.Mutex
	hits   int
	errors int
}

// Record counts one request.
func (s *Stats) Record(failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits++
	if failed {
		s.errors++
	}
}

// Snapshot returns the counters.
func (s *Stats) Snapshot() (hits, errors int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits, s.errors
}
