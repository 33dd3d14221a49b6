// Package maprace models a lookup cache filled in the background while
// requests read it: a plain map written by one goroutine and read by
// another, which the Go runtime may abort with "concurrent map read and
// map write" and the race detector reports.
package maprace

// Cache maps names to ids.
type Cache struct {
	m map[string]int
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: make(map[string]int)} }

// Warm loads entries in the background and closes the returned channel
// when done.
func (c *Cache) Warm(entries map[string]int) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for k, v := range entries {
			c.m[k] = v
		}
		close(done)
	}()
	return done
}

// Get returns the id of name.
func (c *Cache) Get(name string) (int, bool) {
	v, ok := c.m[name]
	return v, ok
}
