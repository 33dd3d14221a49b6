// Package breakertrial is the fixed version: the half-open breaker marks a
// trial in progress and rejects the other callers until it has finished.
package breakertrial

import (
	"errors"
	"sync"
	"time"
)

// ErrOpen is returned while the breaker is open.
var ErrOpen = errors.New("breakertrial: circuit open")

// Breaker guards calls to a backend.
type Breaker struct {
	MaxFailures int
	Cooldown    time.Duration

	mu          sync.Mutex
	failures    int
	lastFailure time.Time
	trial       bool
}

// Call calls f unless the breaker is open.
func (b *Breaker) Call(f func() error) error {
	b.mu.Lock()
	if b.failures >= b.MaxFailures {
		if b.trial || !time.Now().After(b.lastFailure.Add(b.Cooldown)) {
			b.mu.Unlock()
			return ErrOpen
		}
		b.trial = true
	}
	b.mu.Unlock()
	err := f()
	b.mu.Lock()
	b.trial = false
	if err != nil {
		b.failures++
		b.lastFailure = time.Now()
	} else {
		b.failures = 0
	}
	b.mu.Unlock()
	return err
}
