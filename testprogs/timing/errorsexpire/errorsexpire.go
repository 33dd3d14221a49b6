// Package errorsexpire is issue 30's correct program: errors recorded a
// sleep of the window apart are forgotten, because in Go a sleep wakes
// later than its deadline and a goroutine's start takes time. gosct must
// pass it under every schedule, with timers fired early or not.
package errorsexpire

import (
	"sync"
	"time"
)

// recent counts the errors recorded within window of each other.
type recent struct {
	mu     sync.Mutex
	n      int
	last   time.Time
	window time.Duration
}

// record counts an error, forgetting the earlier ones once the last is
// more than window old, and returns the count.
func (r *recent) record() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n > 0 && time.Now().After(r.last.Add(r.window)) {
		r.n = 0
	}
	r.n++
	r.last = time.Now()
	return r.n
}
