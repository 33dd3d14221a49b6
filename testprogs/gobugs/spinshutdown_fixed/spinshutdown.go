// Package spinshutdown is the fixed version: requests are counted with a
// WaitGroup under the mutex, and Shutdown releases the mutex before
// waiting.
package spinshutdown

import (
	"errors"
	"sync"
)

// ErrShuttingDown is returned for requests after Shutdown began.
var ErrShuttingDown = errors.New("spinshutdown: shutting down")

// Server handles requests until shut down.
type Server struct {
	mu       sync.Mutex
	closing  bool
	inflight sync.WaitGroup
	served   int
}

// Handle serves one request.
func (s *Server) Handle() error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return ErrShuttingDown
	}
	s.inflight.Add(1)
	s.mu.Unlock()
	defer s.inflight.Done()

	// ... the request's work happens here, without the lock ...

	s.mu.Lock()
	s.served++
	s.mu.Unlock()
	return nil
}

// Shutdown refuses new requests and waits for in-flight ones.
func (s *Server) Shutdown() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.inflight.Wait()
}

// Served returns the number of requests served.
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}
