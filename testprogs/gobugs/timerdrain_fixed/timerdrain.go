// Package timerdrain is the fixed version: the timer is not reused, so the
// cleanup only stops it; and Close waits for the background
// prefetches.
package timerdrain

import (
	"errors"
	"sync"
	"time"
)

// ErrTimeout is returned when the server does not answer in time.
var ErrTimeout = errors.New("timerdrain: call timed out")

// ErrClosed is returned by Call after Close.
var ErrClosed = errors.New("timerdrain: server closed")

// ServiceTime is how long the server spends on one request.
const ServiceTime = 40 * time.Millisecond

type request struct {
	key  string
	resp chan string
}

// Server answers requests one at a time.
type Server struct {
	reqs chan request
	quit chan struct{}
	done chan struct{}
	bg   sync.WaitGroup
}

// NewServer starts a server.
func NewServer() *Server {
	s := &Server{reqs: make(chan request), quit: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *Server) loop() {
	defer close(s.done)
	for {
		select {
		case r := <-s.reqs:
			time.Sleep(ServiceTime)
			r.resp <- "v:" + r.key
		case <-s.quit:
			return
		}
	}
}

// Close stops the server and waits for the prefetches in flight.
func (s *Server) Close() {
	close(s.quit)
	<-s.done
	s.bg.Wait()
}

// Prefetch warms the server's cache for key in the background, on a
// best-effort basis with a short deadline.
func (s *Server) Prefetch(key string) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.Call(key, ServiceTime+ServiceTime/2)
	}()
}

// Call asks the server for key, giving up after timeout.
func (s *Server) Call(key string, timeout time.Duration) (string, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	resp := make(chan string, 1)
	select {
	case s.reqs <- request{key: key, resp: resp}:
	case <-s.quit:
		return "", ErrClosed
	}
	select {
	case v := <-resp:
		return v, nil
	case <-t.C:
		return "", ErrTimeout
	}
}
