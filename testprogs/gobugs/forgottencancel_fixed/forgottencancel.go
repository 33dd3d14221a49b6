// Package forgottencancel is the fixed version: every path out of Open
// either registers cancel or calls it, and Close waits for the watchers.
package forgottencancel

import (
	"context"
	"errors"
	"sync"
)

// ErrEmptyName is returned by Open for an empty session name.
var ErrEmptyName = errors.New("forgottencancel: empty session name")

// Registry tracks open sessions.
type Registry struct {
	mu       sync.Mutex
	sessions map[string]context.CancelFunc
	active   int
	watchers sync.WaitGroup
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{sessions: make(map[string]context.CancelFunc)}
}

func (r *Registry) addActive(d int) {
	r.mu.Lock()
	r.active += d
	r.mu.Unlock()
}

// Open starts a session named name.
func (r *Registry) Open(parent context.Context, name string) error {
	ctx, cancel := context.WithCancel(parent)
	r.addActive(1)
	r.watchers.Add(1)
	go func() {
		defer r.watchers.Done()
		<-ctx.Done()
		r.addActive(-1)
	}()
	if name == "" {
		cancel()
		return ErrEmptyName
	}
	r.mu.Lock()
	r.sessions[name] = cancel
	r.mu.Unlock()
	return nil
}

// Close cancels every registered session and waits for their watchers.
func (r *Registry) Close() {
	r.mu.Lock()
	for name, cancel := range r.sessions {
		cancel()
		delete(r.sessions, name)
	}
	r.mu.Unlock()
	r.watchers.Wait()
}
