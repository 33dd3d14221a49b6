// Package ctxcommit models a cockroach-style write path that checks the
// request context before committing and again afterwards to report
// cancellation. A cancel that lands between the two checks makes Apply
// report context.Canceled for a write it has already committed.
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
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	s.applied = append(s.applied, v)
	s.mu.Unlock()
	// Surface a cancellation that happened while we were writing.
	return ctx.Err()
}

// Len returns the number of applied values.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.applied)
}
