package svc

import "sync"

// Cache holds computed values by key, with hit and miss counts.
type Cache struct {
	mu     sync.RWMutex
	m      map[string]int
	hits   int
	misses int
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[string]int{}} }

// Get returns the value cached for k.
func (c *Cache) Get(k string) (int, bool) {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	c.mu.Lock()
	if ok {
		c.hits++
	} else {
		c.misses++
	}
	c.mu.Unlock()
	return v, ok
}

// Put caches v for k.
func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

// Len is the number of keys cached.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// Counts returns the hits and misses so far.
func (c *Cache) Counts() (hits, misses int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hits, c.misses
}

// evict empties the cache and says how many keys it dropped.
func (c *Cache) evict() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.m)
	c.m = map[string]int{}
	return n
}
