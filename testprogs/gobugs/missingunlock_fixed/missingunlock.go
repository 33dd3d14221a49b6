// Package missingunlock is the fixed version: TryPop releases the mutex on
// every path with defer.
package missingunlock

import "sync"

// Queue is a FIFO of ints.
type Queue struct {
	mu    sync.Mutex
	items []int
	ready chan struct{}
}

// New returns an empty queue.
func New() *Queue { return &Queue{ready: make(chan struct{}, 1)} }

// Ready receives a value after a Push; consumers poll TryPop when it does.
func (q *Queue) Ready() <-chan struct{} { return q.ready }

// Push appends v.
func (q *Queue) Push(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// TryPop removes and returns the oldest item, if any.
func (q *Queue) TryPop() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}
