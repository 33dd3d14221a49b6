// Package mock drives a mock clock from an uninstrumented module.
package mock

import (
	"sync"
	"time"

	"example.com/mockclock"
)

// Limiter lets one caller through per period of the clock; it sleeps
// holding its (instrumented) lock, as go.uber.org/ratelimit's mutex-based
// limiter does.
type Limiter struct {
	mu    sync.Mutex
	clock *mockclock.Mock
	per   time.Duration
	taken int
}

// NewLimiter returns a limiter on clock c.
func NewLimiter(c *mockclock.Mock, per time.Duration) *Limiter {
	return &Limiter{clock: c, per: per}
}

// Take waits for the next period.
func (l *Limiter) Take() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clock.Sleep(l.per)
	l.taken++
}

// Taken says how many times Take returned.
func (l *Limiter) Taken() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.taken
}
