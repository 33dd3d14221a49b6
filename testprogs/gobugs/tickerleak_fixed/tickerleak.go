// Package tickerleak is the fixed version: Close stops the janitor, which
// stops its ticker, and waits for it to return.
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
	stop  chan struct{}
	done  chan struct{}
}

// New returns a cache whose entries live for ttl.
func New(ttl time.Duration) *Cache {
	c := &Cache{
		items: make(map[string]entry),
		ttl:   ttl,
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go c.janitor(ttl)
	return c
}

func (c *Cache) janitor(every time.Duration) {
	defer close(c.done)
	tk := time.NewTicker(every)
	defer tk.Stop()
	for {
		select {
		case <-tk.C:
			c.evictExpired()
		case <-c.stop:
			return
		}
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

// Close stops the janitor and waits for it.
func (c *Cache) Close() {
	close(c.stop)
	<-c.done
	c.mu.Lock()
	c.items = make(map[string]entry)
	c.mu.Unlock()
}
