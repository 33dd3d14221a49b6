// Package queueclose is the fixed version: Put sends while holding the
// mutex (without blocking) and Close closes under the same mutex.
package queueclose

import (
	"errors"
	"sync"
)

// ErrClosed is returned by Put on a closed queue.
var ErrClosed = errors.New("queueclose: queue closed")

// ErrFull is returned by Put when the queue is full.
var ErrFull = errors.New("queueclose: queue full")

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
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	select {
	case q.items <- v:
		return nil
	default:
		return ErrFull
	}
}

// Close stops accepting items; Items still yields the queued ones.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.items)
	}
}

// Items returns the queue's channel.
func (q *Queue) Items() <-chan int { return q.items }
