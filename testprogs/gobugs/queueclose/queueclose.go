// Package queueclose models a work queue whose Put checks a closed flag
// under the mutex but sends after releasing it, while Close sets the flag
// and closes the channel. A Put that passed the check before Close sends on
// the closed channel.
package queueclose

import (
	"errors"
	"sync"
)

// ErrClosed is returned by Put on a closed queue.
var ErrClosed = errors.New("queueclose: queue closed")

// Queue is a bounded FIFO of ints.
type Queue struct {
	mu     sync.Mutex
	closed bool
	items  chan int
}

// New returns a queue holding up to n items.
func New(n int) *Queue { return &Queue{items: make(chan int, n)} }

// Put appends v.
func (q *Queue) Put(v int) error {
	q.mu.Lock()
	closed := q.closed
	q.mu.Unlock()
	if closed {
		return ErrClosed
	}
	q.items <- v
	return nil
}

// Close stops accepting items; Items still yields the queued ones.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	close(q.items)
}

// Items returns the queue's channel.
func (q *Queue) Items() <-chan int { return q.items }
