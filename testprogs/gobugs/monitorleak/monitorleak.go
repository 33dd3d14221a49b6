// Package monitorleak models a grpc-style connection whose monitor
// goroutine waits in a select for the connection to become ready or for
// the dial context to end. When the server is shut down concurrently the
// dial fails, ready is never closed, and with a background context the
// monitor waits forever.
package monitorleak

import (
	"context"
	"errors"
	"sync"
)

// ErrClosed is returned when dialing a closed server.
var ErrClosed = errors.New("monitorleak: server closed")

// Server accepts connections until it is closed.
type Server struct {
	mu     sync.Mutex
	closed bool
	conns  int
}

// Close stops accepting connections.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

func (s *Server) accept() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.conns++
	return nil
}

// Conn is a client connection.
type Conn struct {
	ready chan struct{}
	done  chan struct{}
	mu    sync.Mutex
	state string
}

// Dial connects to s.
func Dial(ctx context.Context, s *Server) (*Conn, error) {
	c := &Conn{ready: make(chan struct{}), done: make(chan struct{}), state: "connecting"}
	go c.monitor(ctx)
	if err := s.accept(); err != nil {
		return nil, err
	}
	close(c.ready)
	return c, nil
}

func (c *Conn) monitor(ctx context.Context) {
	defer close(c.done)
	select {
	case <-c.ready:
		c.setState("ready")
	case <-ctx.Done():
		c.setState("cancelled")
	}
}

func (c *Conn) setState(s string) {
	c.mu.Lock()
	c.state = s
	c.mu.Unlock()
}

// Close waits for the monitor and closes the connection.
func (c *Conn) Close() {
	<-c.done
	c.setState("closed")
}
