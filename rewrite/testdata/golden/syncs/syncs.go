package syncs

import "sync"

type Counter struct {
	sync.Mutex
	mu  sync.RWMutex
	wg  *sync.WaitGroup
	n   int
	all []sync.Mutex
	m   map[string]*sync.Mutex
}

type Locker interface {
	Lock()
	Unlock()
}

// Lock is a user method named Lock: not a sync.Mutex.
type Fake struct{}

func (Fake) Lock()   {}
func (Fake) Unlock() {}

func Use(c *Counter, l sync.Locker, mine Locker, f Fake, once *sync.Once, cond *sync.Cond) bool {
	c.Lock()
	defer c.Unlock()
	c.mu.RLock()
	c.mu.RUnlock()
	c.mu.Lock()
	c.mu.Unlock()
	ok := c.mu.TryRLock() && c.TryLock()
	_ = c.mu.RLocker()
	c.wg.Add(1)
	go c.wg.Done()
	c.wg.Wait()
	c.all[0].Lock()
	c.m["a"].Unlock()
	l.Lock()
	mine.Unlock()
	f.Lock()
	once.Do(func() {})
	cond.Wait()
	cond.Signal()
	cond.Broadcast()
	var wg sync.WaitGroup
	wg.Go(func() {})
	wg.Wait()
	g := sync.OnceValue(func() int { return 1 })
	_ = g()
	return ok
}

type Guarded struct {
	sync.Locker
	n int
}

func (g *Guarded) Inc() {
	g.Lock()
	g.n++
	g.Unlock()
}
