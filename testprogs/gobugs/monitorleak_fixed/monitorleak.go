// Package monitorleak is the fixed version: the monitor waits on a context
// that Dial cancels when it fails, and Dial waits for the monitor then.
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
	ready  chan struct{}
	done   chan struct{}
	cancel context.CancelFunc
	mu     sync.Mutex
	state  string
}

// Dial connects to s.
func Dial(ctx context.Context, s *Server) (*Conn, error) {
	ctx, cancel := context.WithCancel(ctx)
	c := &Conn{ready: make(chan struct{}), done: make(chan struct{}), cancel: cancel, state: "connecting"}
	go c.monitor(ctx)
	if err := s.accept(); err != nil {
		cancel()
		<-c.done
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
	c.cancel()
	c.setState("closed")
}
