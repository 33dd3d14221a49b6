// Package lazyinit is the fixed version: sync.Once dials exactly once and
// publishes the connection safely.
package lazyinit

import "sync"

// Conn is a dialed connection.
type Conn struct {
	ID int
}

// Client dials at most once.
type Client struct {
	once  sync.Once
	mu    sync.Mutex
	conn  *Conn
	dials int
}

// Conn returns the client's connection, dialing it on first use.
func (c *Client) Conn() *Conn {
	c.once.Do(func() {
		c.mu.Lock()
		c.dials++
		c.conn = &Conn{ID: c.dials}
		c.mu.Unlock()
	})
	return c.conn
}

// Dials returns the number of dials performed.
func (c *Client) Dials() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dials
}
