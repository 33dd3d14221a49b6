// Package notifylock models an etcd-style watchable store that notifies
// its watcher while still holding the store mutex, on an unbuffered
// channel. A watcher that reads the current revision (which takes the
// mutex) before receiving deadlocks with a Put that got the mutex first:
// the Put waits for the watcher to receive, the watcher waits for the
// mutex.
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
	defer s.mu.Unlock()
	s.rev++
	s.value = v
	s.watchCh <- s.rev
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
