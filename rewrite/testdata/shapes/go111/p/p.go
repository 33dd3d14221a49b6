// Package p is in a go 1.11 module without go.sum, whose files say their
// build constraints the old way (// +build).
package p

import "sync"

// Counter counts under a lock.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
