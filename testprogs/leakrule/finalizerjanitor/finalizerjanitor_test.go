package finalizerjanitor

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

type cache struct {
	mu    sync.Mutex
	items map[string]int
	stop  chan bool
}

// Cache wraps cache so that the janitor, which holds only the inner
// cache, does not keep it reachable: its finalizer stops the janitor.
type Cache struct{ *cache }

func newCache(every time.Duration) *Cache {
	c := &cache{items: map[string]int{}, stop: make(chan bool)}
	go c.janitor(every)
	C := &Cache{c}
	runtime.SetFinalizer(C, func(C *Cache) { C.stop <- true })
	return C
}

func (c *cache) janitor(every time.Duration) {
	tk := time.NewTicker(every)
	for {
		select {
		case <-tk.C:
			c.mu.Lock()
			clear(c.items)
			c.mu.Unlock()
		case <-c.stop:
			tk.Stop()
			return
		}
	}
}

func TestFinalizerjanitor(t *testing.T) {
	c := newCache(time.Millisecond)
	c.items["a"] = 1
}
