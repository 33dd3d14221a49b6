// Package registry has github.com/golang/groupcache's shape: named groups
// registered in a package-level map that refuses a name twice, each a
// cache in front of a getter. Its tests register their groups once per
// process, through a sync.Once, and expect a cold cache: they pass under
// go test, once.
package registry

import "sync"

var (
	mu     sync.RWMutex
	groups = map[string]*Group{}
)

// Group caches what its getter returns.
type Group struct {
	get   func(key string) string
	mu    sync.Mutex
	cache map[string]string
}

// NewGroup registers a group; a second registration of a name panics.
func NewGroup(name string, get func(key string) string) *Group {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := groups[name]; dup {
		panic("duplicate registration of group " + name)
	}
	g := &Group{get: get, cache: map[string]string{}}
	groups[name] = g
	return g
}

// Get returns the cached value of key, or the getter's.
func (g *Group) Get(key string) string {
	g.mu.Lock()
	v, ok := g.cache[key]
	g.mu.Unlock()
	if ok {
		return v
	}
	v = g.get(key)
	g.mu.Lock()
	g.cache[key] = v
	g.mu.Unlock()
	return v
}
