// Package sametimer is the fixed version: refresh writes the reloaded
// value only if the entry is still there, checked in the same critical
// section as the write.
package sametimer

import (
	"sync"
	"time"
)

// Cache maps keys to values that live for a TTL.
type Cache struct {
	mu    sync.Mutex
	items map[string]int
	size  int
	wg    sync.WaitGroup
	load  func(string) int
}

// New returns a cache that reloads values with load.
func New(load func(string) int) *Cache {
	return &Cache{items: make(map[string]int), load: load}
}

// Put stores v under k for ttl.
func (c *Cache) Put(k string, v int, ttl time.Duration) {
	c.mu.Lock()
	if _, ok := c.items[k]; !ok {
		c.size++
	}
	c.items[k] = v
	c.mu.Unlock()
	c.wg.Add(2)
	time.AfterFunc(ttl, func() { defer c.wg.Done(); c.expire(k) })
	time.AfterFunc(ttl, func() { defer c.wg.Done(); c.refresh(k) })
}

func (c *Cache) expire(k string) {
	c.mu.Lock()
	if _, ok := c.items[k]; ok {
		delete(c.items, k)
		c.size--
	}
	c.mu.Unlock()
}

func (c *Cache) refresh(k string) {
	c.mu.Lock()
	_, ok := c.items[k]
	c.mu.Unlock()
	if !ok {
		return
	}
	v := c.load(k)
	c.mu.Lock()
	if _, ok := c.items[k]; ok {
		c.items[k] = v
	}
	c.mu.Unlock()
}

// Wait waits for the timers of every Put to have run.
func (c *Cache) Wait() { c.wg.Wait() }

// Len returns the number of entries and the size count.
func (c *Cache) Len() (entries, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items), c.size
}
