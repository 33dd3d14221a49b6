// Package timerdrain models an RPC client with a per-call timer and the
// "stop, and drain if Stop failed" idiom in a deferred cleanup. The cleanup
// also runs after the timeout case, which has already received the
// timer's value, so the drain waits forever for a second value. Only a call
// that actually times out, because another caller's request was served
// first, hits it; the caller's goroutine then leaks.
package timerdrain

import (
	"errors"
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

// Close stops the server.
func (s *Server) Close() {
	close(s.quit)
	<-s.done
}

// Prefetch warms the server's cache for key in the background, on a
// best-effort basis with a short deadline.
func (s *Server) Prefetch(key string) {
	go s.Call(key, ServiceTime+ServiceTime/2)
}

// Call asks the server for key, giving up after timeout.
func (s *Server) Call(key string, timeout time.Duration) (string, error) {
	t := time.NewTimer(timeout)
	defer func() {
		if !t.Stop() {
			<-t.C
		}
	}()
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
