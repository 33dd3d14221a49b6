// Package lazyinit models a client that dials its connection lazily with
// "check, then lock": the nil check is outside the mutex and not repeated
// inside it, so two first callers both dial, and one of them ends up using
// a connection that is immediately replaced.
package lazyinit

import "sync"

// Conn is a dialed connection.
type Conn struct {
	ID int
}

// Client dials at most once (it means to).
type Client struct {
	mu    sync.Mutex
	conn  *Conn
	dials int
}

// Conn returns the client's connection, dialing it on first use.
func (c *Client) Conn() *Conn {
	if c.conn == nil {
		c.mu.Lock()
		c.dials++
		c.conn = &Conn{ID: c.dials}
		c.mu.Unlock()
	}
	return c.conn
}

// Dials returns the number of dials performed.
func (c *Client) Dials() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dials
}
