// Package maprace is the fixed version: the map is guarded by an RWMutex.
package maprace

import "sync"

// Cache maps names to ids.
type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: make(map[string]int)} }

// Warm loads entries in the background and closes the returned channel
// when done.
func (c *Cache) Warm(entries map[string]int) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for k, v := range entries {
			c.mu.Lock()
			c.m[k] = v
			c.mu.Unlock()
		}
		close(done)
	}()
	return done
}

// Get returns the id of name.
func (c *Cache) Get(name string) (int, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[name]
	return v, ok
}
