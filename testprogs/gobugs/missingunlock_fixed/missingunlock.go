// Package missingunlock is the fixed version: TryPop releases the mutex on
// every path with defer.
package missingunlock

import "sync"

// Queue is a FIFO of ints.
type Queue struct {
	mu    sync.Mutex
	items []int
}

// Push appends v.
func (q *Queue) Push(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
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
