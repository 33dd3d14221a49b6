// Package timerchurn models a cache of pending entries, each with a timer
// that settles it (time.AfterFunc), put and taken back a thousand times in a
// loop: a run with a thousand timers, most of them stopped before they fire.
// Take cancels an entry whose timer could not be stopped (its callback is
// already running, or due): the callback then finds it cancelled and must
// leave the entry alone.
//
// The callback of a put whose take came too late unlocks before it returns.
package timerchurn

import (
	"sync"
	"time"
)

type entry struct{ cancelled bool }

// Cache maps keys to pending entries and their timers.
type Cache struct {
	mu      sync.Mutex
	pending map[int]*entry
	timers  map[int]*time.Timer
}

// New returns an empty cache.
func New() *Cache {
	return &Cache{pending: map[int]*entry{}, timers: map[int]*time.Timer{}}
}

// Put adds a pending entry under k, settled by a timer.
func (c *Cache) Put(k int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &entry{}
	c.pending[k] = e
	c.timers[k] = time.AfterFunc(time.Nanosecond, func() {
		c.mu.Lock()
		if e.cancelled {
			c.mu.Unlock()
			return
		}
		delete(c.pending, k)
		c.mu.Unlock()
	})
}

// Take removes the pending entry under k, cancelling it if its timer
// could not be stopped.
func (c *Cache) Take(k int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.pending[k]; ok {
		if !c.timers[k].Stop() {
			e.cancelled = true
		}
		delete(c.pending, k)
	}
}
