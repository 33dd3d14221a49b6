// Package rwrecursive is the fixed version: Resolve uses a helper that
// expects the lock to be held instead of re-acquiring it.
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
	return r.lookupLocked(name)
}

// lookupLocked requires r.mu to be held (for reading or writing).
func (r *Registry) lookupLocked(name string) (string, bool) {
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
		if addr, ok := r.lookupLocked(n); ok {
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
