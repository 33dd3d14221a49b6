// Package spinshutdown models a server whose Shutdown holds the server
// mutex while spinning until the in-flight request count drops to zero,
// but a request needs that mutex to finish. If a request is in flight when
// Shutdown starts, Shutdown spins forever (yielding, never blocking): a
// livelock.
package spinshutdown

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
)

// ErrShuttingDown is returned for requests after Shutdown began.
var ErrShuttingDown = errors.New("spinshutdown: shutting down")

// Server handles requests until shut down.
type Server struct {
	mu       sync.Mutex
	closing  bool
	inflight int32
	served   int
}

// Handle serves one request.
func (s *Server) Handle() error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return ErrShuttingDown
	}
	atomic.AddInt32(&s.inflight, 1)
	s.mu.Unlock()

	// ... the request's work happens here, without the lock ...

	s.mu.Lock()
	s.served++
	s.mu.Unlock()
	atomic.AddInt32(&s.inflight, -1)
	return nil
}

// Shutdown refuses new requests and waits for in-flight ones.
func (s *Server) Shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closing = true
	for atomic.LoadInt32(&s.inflight) != 0 {
		runtime.Gosched()
	}
}

// Served returns the number of requests served.
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}
