// Package b is a module of the workspace that a's test imports: its
// mutex is instrumented too, and imports gosct's runtime.
package b

import "sync"

// C is a counter.
type C struct {
	mu sync.Mutex
	n  int
}

// Inc adds one.
func (c *C) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// N is the count.
func (c *C) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
