package introspect

import (
	"sync"
	"sync/atomic"
	"time"
)

// Cache is a cache whose janitor goroutine does not keep it alive: the
// janitor holds the part it works on, and a cleanup of the Cache stops
// it, as otter's caches do.
type Cache struct {
	*core
}

type core struct {
	mu    sync.Mutex
	once  sync.Once
	lazy  sync.Once // makes items
	items map[string]int
	hits  atomic.Int64
	wg    sync.WaitGroup
	done  chan struct{}
}

// NewCache starts a Cache and its janitor.
func NewCache() *Cache {
	c := &core{done: make(chan struct{})}
	c.wg.Add(1)
	go c.janitor()
	return &Cache{c}
}

// Stop stops the janitor.
func (c *core) Stop() { c.once.Do(func() { close(c.done) }) }

func (c *core) janitor() {
	defer c.wg.Done()
	for {
		select {
		case <-c.done:
			return
		case <-time.After(time.Second):
			c.mu.Lock()
			clear(c.items)
			c.mu.Unlock()
		}
	}
}

// Put stores v under k.
func (c *Cache) Put(k string, v int) {
	c.lazy.Do(func() { c.items = map[string]int{} })
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
}

// Get returns k's value.
func (c *Cache) Get(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	if ok {
		c.hits.Add(1)
	}
	return v, ok
}
