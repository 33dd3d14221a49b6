// Package tickerleak models a TTL cache whose janitor goroutine evicts
// expired entries on every tick. Nothing ever stops the ticker or the
// janitor, so each cache leaks a goroutine.
package tickerleak

import (
	"sync"
	"time"
)

type entry struct {
	value   string
	expires time.Time
}

// Cache is a map with per-entry expiry.
type Cache struct {
	mu    sync.Mutex
	items map[string]entry
	ttl   time.Duration
}

// New returns a cache whose entries live for ttl.
func New(ttl time.Duration) *Cache {
	c := &Cache{items: make(map[string]entry), ttl: ttl}
	go c.janitor(ttl)
	return c
}

func (c *Cache) janitor(every time.Duration) {
	tk := time.NewTicker(every)
	for range tk.C {
		c.evictExpired()
	}
}

func (c *Cache) evictExpired() {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.items {
		if now.After(e.expires) {
			delete(c.items, k)
		}
	}
}

// Set stores value under key.
func (c *Cache) Set(key, value string) {
	c.mu.Lock()
	c.items[key] = entry{value: value, expires: time.Now().Add(c.ttl)}
	c.mu.Unlock()
}

// Get returns the value stored under key if it has not expired.
func (c *Cache) Get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok || time.Now().After(e.expires) {
		return "", false
	}
	return e.value, true
}

// Close releases the cache.
func (c *Cache) Close() {
	c.mu.Lock()
	c.items = make(map[string]entry)
	c.mu.Unlock()
}
