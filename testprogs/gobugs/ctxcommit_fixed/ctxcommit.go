// Package ctxcommit is the fixed version: the cancellation check and the
// commit happen under the same lock, and a committed write reports success.
package ctxcommit

import (
	"context"
	"sync"
)

// Store is an append-only log of values.
type Store struct {
	mu      sync.Mutex
	applied []int
}

// Apply appends v unless ctx is done; a nil error means v is in the log.
func (s *Store) Apply(ctx context.Context, v int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	s.applied = append(s.applied, v)
	return nil
}

// Len returns the number of applied values.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.applied)
}
