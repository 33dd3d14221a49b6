// Package doubleclose is the fixed version: sync.Once makes Stop
// idempotent under concurrency.
package doubleclose

import "sync"

// Server runs until stopped.
type Server struct {
	stopOnce sync.Once
	quit     chan struct{}
}

// NewServer returns a running server.
func NewServer() *Server { return &Server{quit: make(chan struct{})} }

// Stop stops the server; calling it again does nothing.
func (s *Server) Stop() {
	s.stopOnce.Do(func() { close(s.quit) })
}

// Done is closed when the server stops.
func (s *Server) Done() <-chan struct{} { return s.quit }
