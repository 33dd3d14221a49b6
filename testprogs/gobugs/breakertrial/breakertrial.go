// Package breakertrial models a circuit breaker: after MaxFailures
// consecutive failures it opens and rejects calls; once Cooldown has passed
// since the last failure it is half-open and lets a trial call through,
// closing again if the trial succeeds. The half-open state admits every
// caller that arrives after the cooldown until one of them records its
// result, not one: two concurrent callers both reach the failing backend.
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
}

// Call calls f unless the breaker is open.
func (b *Breaker) Call(f func() error) error {
	b.mu.Lock()
	if b.failures >= b.MaxFailures && !time.Now().After(b.lastFailure.Add(b.Cooldown)) {
		b.mu.Unlock()
		return ErrOpen
	}
	b.mu.Unlock()
	err := f()
	b.mu.Lock()
	if err != nil {
		b.failures++
		b.lastFailure = time.Now()
	} else {
		b.failures = 0
	}
	b.mu.Unlock()
	return err
}
