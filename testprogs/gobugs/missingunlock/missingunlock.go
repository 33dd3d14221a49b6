// Package missingunlock models a queue whose TryPop returns early on an
// empty queue without releasing the mutex. A consumer that polls before the
// producer has pushed leaves the mutex locked, and the next Push or TryPop
// blocks forever.
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
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	q.mu.Unlock()
	return v, true
}
