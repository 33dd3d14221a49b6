// Package notifylock is the fixed version: Put updates the store under the
// mutex and notifies the watcher after releasing it.
package notifylock

import "sync"

// Store is a versioned value with one watcher.
type Store struct {
	mu      sync.Mutex
	rev     int
	value   string
	watchCh chan int
}

// NewStore returns an empty store at revision 0.
func NewStore() *Store { return &Store{watchCh: make(chan int)} }

// Put stores v and notifies the watcher of the new revision.
func (s *Store) Put(v string) {
	s.mu.Lock()
	s.rev++
	s.value = v
	rev := s.rev
	s.mu.Unlock()
	s.watchCh <- rev
}

// Rev returns the current revision.
func (s *Store) Rev() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rev
}

// Next waits for the next revision and returns it with the number of
// revisions the watcher was behind when it started waiting.
func (s *Store) Next() (rev, lag int) {
	cur := s.Rev()
	rev = <-s.watchCh
	return rev, rev - cur
}
