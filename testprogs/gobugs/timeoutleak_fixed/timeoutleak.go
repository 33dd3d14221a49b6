// Package timeoutleak is the fixed version: the worker's channel has room
// for its one answer, and Close waits for every worker to finish.
package timeoutleak

import (
	"errors"
	"sync"
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
	wg      sync.WaitGroup
}

// NewClient returns a client for b.
func NewClient(b *Backend) *Client { return &Client{backend: b} }

// Get asks the backend for key and gives up after timeout.
func (c *Client) Get(key string, timeout time.Duration) (string, error) {
	// Buffered so that a worker whose caller gave up can still finish.
	ch := make(chan string, 1)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ch <- c.backend.fetch(key)
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v, nil
	case <-timer.C:
		return "", ErrTimeout
	}
}

// Close waits for the workers of abandoned requests.
func (c *Client) Close() { c.wg.Wait() }
