// Package rwrecursive models a kubernetes-style service registry whose
// batch lookup holds the read lock and calls the single lookup, which takes
// the read lock again. sync.RWMutex blocks new readers once a writer waits,
// so a Register arriving between the two RLocks deadlocks both.
package rwrecursive

import "sync"

// Registry maps service names to addresses.
type Registry struct {
	mu       sync.RWMutex
	services map[string]string
}

// NewRegistry returns a registry holding services.
func NewRegistry(services map[string]string) *Registry {
	m := make(map[string]string, len(services))
	for k, v := range services {
		m[k] = v
	}
	return &Registry{services: m}
}

// Lookup returns the address of name.
func (r *Registry) Lookup(name string) (string, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	addr, ok := r.services[name]
	return addr, ok
}

// Resolve returns the addresses of the known names, consistently with
// respect to concurrent registrations.
func (r *Registry) Resolve(names []string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var addrs []string
	for _, n := range names {
		if addr, ok := r.Lookup(n); ok {
			addrs = append(addrs, addr)
		}
	}
	return addrs
}

// Register adds or replaces a service.
func (r *Registry) Register(name, addr string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.services[name] = addr
}
