package fixed

import (
	"runtime"
	"sync/atomic"
)

// maxSize bounds the queue, as the CHESS sample's MaxSize does.
const maxSize = 1024 * 1024

// initialSize is the size the array grows to from an empty (mask 0) queue.
const initialSize = 1024

// queue is the Cilk "THE" work-stealing queue of the CHESS sample, guarded by
// a spin lock (an atomic swap retried after runtime.Gosched, CHESS's USE_NON_BLOCKING_SYNC). head and tail are read and written with sequentially consistent
// atomics, like the sample's C++11 atomics; elems is a plain array that the
// owner's fast paths touch without the lock.
type queue struct {
	head, tail atomic.Int64
	elems      []*item
	mask       int64
	lock       spinLock
}

func newQueue(size int64) *queue {
	return &queue{elems: make([]*item, size), mask: size - 1}
}

// steal is called by thieves: it claims head under the lock and backs off if
// the queue turned out to be empty.
func (q *queue) steal() (*item, bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	h := q.head.Load()
	q.head.Store(h + 1)
	if h < q.tail.Load() {
		return q.elems[h&q.mask], true
	}
	q.head.Store(h)
	return nil, false
}

// pop is called by the owner only: it takes from the tail without the lock
// unless it may be racing a thief for the last element.
func (q *queue) pop() (*item, bool) {
	t := q.tail.Load() - 1
	q.tail.Store(t)
	if q.head.Load() <= t {
		return q.elems[t&q.mask], true
	}
	q.tail.Store(t + 1)
	return q.syncPop()
}

func (q *queue) syncPop() (*item, bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	var result *item
	found := false
	t := q.tail.Load() - 1
	q.tail.Store(t)
	if q.head.Load() <= t {
		result, found = q.elems[t&q.mask], true
	} else {
		q.tail.Store(t + 1)
	}
	if q.head.Load() > t {
		// The queue is empty: reset it so the indices do not grow.
		q.head.Store(0)
		q.tail.Store(0)
		found = false
	}
	return result, found
}

// push is called by the owner only: it stores at the tail without the lock
// while there is room.
func (q *queue) push(it *item) {
	t := q.tail.Load()
	// Leave one slot free, so the owner never fills a slot that a thief
	// has claimed (head incremented) but not yet read.
	if t < q.head.Load()+q.mask && t < maxSize {
		q.elems[t&q.mask] = it
		q.tail.Store(t + 1)
		return
	}
	q.syncPush(it)
}

func (q *queue) syncPush(it *item) {
	q.lock.Lock()
	defer q.lock.Unlock()
	h := q.head.Load()
	count := q.tail.Load() - h
	h &= q.mask
	q.head.Store(h)
	q.tail.Store(h + count)
	if count >= q.mask {
		newSize := 2 * (q.mask + 1)
		if q.mask == 0 {
			newSize = initialSize
		}
		elems := make([]*item, newSize)
		for i := int64(0); i < count; i++ {
			elems[i] = q.elems[(i+h)&q.mask]
		}
		q.elems = elems
		q.mask = newSize - 1
		q.head.Store(0)
		q.tail.Store(count)
	}
	t := q.tail.Load()
	q.elems[t&q.mask] = it
	q.tail.Store(t + 1)
}

// spinLock is the sample's non-blocking lock: acquire swaps 1 into the lock
// word and, while someone else held it, yields (sleep(0) in the original,
// which the schedulers treat as a free switch) and retries.
type spinLock struct {
	word atomic.Int32
}

func (l *spinLock) Lock() {
	for l.word.Swap(1) != 0 {
		runtime.Gosched()
	}
}

func (l *spinLock) Unlock() {
	l.word.Store(0)
}
