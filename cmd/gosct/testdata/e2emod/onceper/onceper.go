// Package onceper reports a failure once per process: the failure's
// report changes package-level state (as a logger that warns once, a
// cache filled on the first failure, or testify's once-per-process
// hooks do), so the failing schedule run a second time in the same
// process passes, and only a fresh process shows the bug again.
package onceper

import "sync"

var warned = map[string]bool{}

// Warn reports whether this is the first warning about what in the
// process.
func Warn(what string) bool {
	first := !warned[what]
	warned[what] = true
	return first
}

// Flag is set by one goroutine and read by another.
type Flag struct {
	mu  sync.Mutex
	set bool
}

// Set sets the flag.
func (f *Flag) Set() {
	f.mu.Lock()
	f.set = true
	f.mu.Unlock()
}

// IsSet reports whether the flag is set.
func (f *Flag) IsSet() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.set
}
