// Package forgottencancel models a session registry: each session owns a
// context whose cancellation a watcher goroutine waits for. The error path
// of Open forgets to call cancel, so that watcher waits forever.
package forgottencancel

import (
	"context"
	"errors"
	"sync"
)

// ErrEmptyName is returned by Open for an empty session name.
var ErrEmptyName = errors.New("forgottencancel: empty session name")

type session struct {
	name   string
	cancel context.CancelFunc
}

// Registry tracks open sessions.
type Registry struct {
	mu       sync.Mutex
	sessions map[string]context.CancelFunc
	active   int
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
	s := session{name: name, cancel: cancel}
	r.addActive(1)
	go func() {
		<-ctx.Done()
		r.addActive(-1)
	}()
	if name == "" {
		return ErrEmptyName
	}
	r.mu.Lock()
	r.sessions[s.name] = s.cancel
	r.mu.Unlock()
	return nil
}

// Close cancels every registered session.
func (r *Registry) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for name, cancel := range r.sessions {
		cancel()
		delete(r.sessions, name)
	}
}
