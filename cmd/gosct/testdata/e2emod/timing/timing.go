// Package timing holds tests whose outcome depends on time: one correct
// (errors forgotten a window after the last), one that sleeps to let a
// goroutine run and fails when the goroutine stalls longer (a flaky test
// on a loaded machine: gosct reports it as timing-dependent).
package timing

import (
	"sync"
	"time"
)

// Recent counts the errors of the last window.
type Recent struct {
	mu     sync.Mutex
	n      int
	last   time.Time
	window time.Duration
}

// NewRecent forgets errors a window after the last.
func NewRecent(window time.Duration) *Recent { return &Recent{window: window} }

// Record counts an error and returns the count.
func (r *Recent) Record() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n > 0 && time.Now().After(r.last.Add(r.window)) {
		r.n = 0
	}
	r.n++
	r.last = time.Now()
	return r.n
}

// Count is the errors of the last window.
func (r *Recent) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// Flag is set once.
type Flag struct {
	mu  sync.Mutex
	set bool
}

// Set sets it.
func (f *Flag) Set() { f.mu.Lock(); f.set = true; f.mu.Unlock() }

// IsSet says whether it is set.
func (f *Flag) IsSet() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.set }
