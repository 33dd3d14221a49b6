// Package randpercent is a cache that refreshes its value in the
// background on about 40% of the lookups (rand.Intn(10) > 5). Each refresh
// announces itself on a channel with room for one announcement: when two
// lookups both refresh, the second refresher blocks for ever.
package randpercent

import (
	"math/rand"
	"sync"
)

// Cache holds a value and refreshes it now and then.
type Cache struct {
	mu        sync.Mutex
	val       int
	refreshed chan int
}

// New returns a cache holding v.
func New(v int) *Cache { return &Cache{val: v, refreshed: make(chan int, 1)} }

// Get returns the value, starting a background refresh on some lookups.
func (c *Cache) Get() int {
	c.mu.Lock()
	v := c.val
	c.mu.Unlock()
	if rand.Intn(10) > 5 {
		go c.refresh()
	}
	return v
}

func (c *Cache) refresh() {
	c.mu.Lock()
	c.val++
	n := c.val
	c.mu.Unlock()
	c.refreshed <- n // room for one: a second refresh waits for ever
}

// Drain takes the pending announcement, if any.
func (c *Cache) Drain() {
	select {
	case <-c.refreshed:
	default:
	}
}
