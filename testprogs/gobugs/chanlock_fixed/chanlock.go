// Package chanlock is the fixed version: the reader waits for the message
// without holding the mutex and takes it only to record the message.
package chanlock

import "sync"

// Conn receives messages from a transport.
type Conn struct {
	mu       sync.Mutex
	incoming chan string
	pending  int
	seen     []string
}

// NewConn returns a connection with no messages.
func NewConn() *Conn { return &Conn{incoming: make(chan string)} }

// ReadOne waits for a message and records it.
func (c *Conn) ReadOne() string {
	msg := <-c.incoming
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending--
	c.seen = append(c.seen, msg)
	return msg
}

// Deliver hands msg to the reader.
func (c *Conn) Deliver(msg string) {
	c.mu.Lock()
	c.pending++
	c.mu.Unlock()
	c.incoming <- msg
}

// Pending returns the number of delivered but unread messages.
func (c *Conn) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending
}
