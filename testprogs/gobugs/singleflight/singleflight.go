// Package singleflight models a groupcache-style duplicate-call
// suppressor. The leader removes the call from the map and releases the
// waiters before storing the result in the call, so a waiter that joined
// the flight can read the result before it is written.
package singleflight

import "sync"

type call struct {
	wg  sync.WaitGroup
	val string
}

// Group suppresses concurrent calls with the same key.
type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

// Do runs fn once for all concurrent callers with the same key and gives
// each of them its result.
func (g *Group) Do(key string, fn func() string) string {
	g.mu.Lock()
	if g.m == nil {
		g.m = make(map[string]*call)
	}
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := &call{}
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	v := fn()
	g.forget(key, c)
	c.val = v
	return v
}

// forget ends the flight of c: later calls start a new one.
func (g *Group) forget(key string, c *call) {
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
	c.wg.Done()
}
