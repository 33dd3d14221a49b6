// Package doublelock models a store whose write path, when it finds the
// store closed, logs the store's statistics through the public Stats
// method, which takes the mutex the write path already holds. Only a Put
// that races with Close takes that path, and then it deadlocks on itself.
package doublelock

import (
	"errors"
	"fmt"
	"sync"
)

// ErrClosed is returned by Put after Close.
var ErrClosed = errors.New("doublelock: store closed")

// Store is a closable key-value store.
type Store struct {
	mu       sync.Mutex
	closed   bool
	data     map[string]int
	rejected int
	log      []string
}

// New returns an open store.
func New() *Store { return &Store{data: make(map[string]int)} }

// Put stores v under k.
func (s *Store) Put(k string, v int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		s.rejected++
		s.log = append(s.log, fmt.Sprintf("rejected put %q: %s", k, s.Stats()))
		return ErrClosed
	}
	s.data[k] = v
	return nil
}

// Stats describes the store.
func (s *Store) Stats() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("%d keys, %d rejected", len(s.data), s.rejected)
}

// Close makes further Puts fail.
func (s *Store) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}
