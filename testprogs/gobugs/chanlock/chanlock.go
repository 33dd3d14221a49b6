// Package chanlock models a connection whose reader takes the connection
// mutex and then waits for the next incoming message, while the delivery
// path needs the same mutex before it can send the message: a mixed
// channel-and-lock deadlock when the reader gets the mutex first.
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
	c.mu.Lock()
	defer c.mu.Unlock()
	msg := <-c.incoming
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
