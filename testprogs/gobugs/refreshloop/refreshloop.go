// Package refreshloop models a client that keeps its token fresh: a
// background loop refreshes it on a timer until the client's context is
// done, and Close cancels that context. NewClient starts the loop with
// context.TODO() instead of the client's context, so Close does not stop
// it: the loop retries for ever after the test.
package refreshloop

import (
	"context"
	"strconv"
	"sync"
	"time"
)

// Client holds a token that a background loop refreshes.
type Client struct {
	cancel context.CancelFunc
	every  time.Duration
	mu     sync.Mutex
	token  string
	n      int
}

// NewClient returns a client refreshing its token every interval.
func NewClient(every time.Duration) *Client {
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{cancel: cancel, every: every}
	c.refresh()
	go c.loop(context.TODO())
	_ = ctx
	return c
}

func (c *Client) loop(ctx context.Context) {
	for {
		select {
		case <-time.After(c.every):
			c.refresh()
		case <-ctx.Done():
			return
		}
	}
}

func (c *Client) refresh() {
	c.mu.Lock()
	c.n++
	c.token = "token-" + strconv.Itoa(c.n)
	c.mu.Unlock()
}

// Token returns the current token.
func (c *Client) Token() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.token
}

// Close stops the refresh loop.
func (c *Client) Close() { c.cancel() }
