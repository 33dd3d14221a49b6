package fixed

import "sync"

// queue is ferret's bounded pipeline queue (queue.h): a list with a depth
// limit, a mutex and the two conditions not_empty and not_full.
type queue struct {
	mu        sync.Mutex
	notEmpty  *sync.Cond
	notFull   *sync.Cond
	items     []int
	depth     int
	cancelled bool // stands for pthread_cancel of the threads blocked on it
}

func newQueue(depth int) *queue {
	q := &queue{depth: depth}
	q.notEmpty = sync.NewCond(&q.mu)
	q.notFull = sync.NewCond(&q.mu)
	return q
}

// enqueue waits for room and appends v. It returns false when the waiting
// thread was cancelled.
func (q *queue) enqueue(v int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) >= q.depth {
		if q.cancelled {
			return false
		}
		q.notFull.Wait()
	}
	if q.cancelled {
		return false
	}
	q.items = append(q.items, v)
	if len(q.items) > 0 {
		q.notEmpty.Signal()
	}
	return true
}

// dequeue waits for an item and removes it. It returns false when the
// waiting thread was cancelled.
func (q *queue) dequeue() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		if q.cancelled {
			return 0, false
		}
		q.notEmpty.Wait()
	}
	if q.cancelled {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	if len(q.items) < q.depth {
		q.notFull.Signal()
	}
	return v, true
}

// cancel models pthread_cancel of every thread blocked on q: pthread
// condition waits are cancellation points, so each waiter wakes and exits.
func (q *queue) cancel() {
	q.mu.Lock()
	q.cancelled = true
	q.mu.Unlock()
	q.notEmpty.Broadcast()
	q.notFull.Broadcast()
}
