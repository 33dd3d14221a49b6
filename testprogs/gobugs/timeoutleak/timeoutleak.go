// Package timeoutleak models a client call with a deadline: the worker
// goroutine that talks to the backend reports on an unbuffered channel, so
// when the caller gives up first the worker can never deliver its answer.
package timeoutleak

import (
	"errors"
	"time"
)

// ErrTimeout is returned when the backend does not answer in time.
var ErrTimeout = errors.New("timeoutleak: request timed out")

// Backend answers every request after Latency.
type Backend struct {
	Latency time.Duration
}

func (b *Backend) fetch(key string) string {
	time.Sleep(b.Latency)
	return "value-of-" + key
}

// Client sends requests to a Backend with a per-request timeout.
type Client struct {
	backend *Backend
}

// NewClient returns a client for b.
func NewClient(b *Backend) *Client { return &Client{backend: b} }

// Get asks the backend for key and gives up after timeout.
func (c *Client) Get(key string, timeout time.Duration) (string, error) {
	ch := make(chan string)
	go func() {
		ch <- c.backend.fetch(key)
	}()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(timeout):
		return "", ErrTimeout
	}
}

// Close releases the client. The client owns no resources of its own.
func (c *Client) Close() {}
