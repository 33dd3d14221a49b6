package fixed

import (
	"runtime"
	"sync/atomic"
)

// maxSize bounds the queue, as the CHESS sample's MaxSize does.
const maxSize = 1024 * 1024

// initialSize is the size the array grows to from an empty (mask 0) queue.
const initialSize = 1024

// queue is the Cilk "THE" work-stealing queue of the CHESS sample in its
// "WithState" form: every operation records itself in the shared
// stateCapture. Unlike chess.IWSQ, its push room test is the correct one.
type queue struct {
	head, tail atomic.Int64
	elems      []*item
	mask       int64
	lock       spinLock
	st         *stateCapture
}

func newQueue(size int64, st *stateCapture) *queue {
	return &queue{elems: make([]*item, size), mask: size - 1, st: st}
}

func (q *queue) acquire(tid int) {
	q.st.enter(tid, "Acquire")
	defer q.st.exit(tid)
	for q.lock.word.Swap(1) != 0 {
		q.st.at(tid, 1)
		runtime.Gosched() // sleep(0) in the original
	}
	q.st.at(tid, 2)
}

func (q *queue) release(tid int) {
	q.st.enter(tid, "Release")
	defer q.st.exit(tid)
	q.lock.word.Store(0)
	q.st.at(tid, 1)
}

// steal is called by thieves: it claims head under the lock and backs off if
// the queue turned out to be empty.
func (q *queue) steal(tid int) (*item, bool) {
	q.st.enter(tid, "Steal")
	defer q.st.exit(tid)
	q.acquire(tid)
	q.st.at(tid, 1)
	var result *item
	found := false
	h := q.head.Load()
	q.head.Store(h + 1)
	q.st.at(tid, 2)
	if h < q.tail.Load() {
		result, found = q.elems[h&q.mask], true
	} else {
		q.head.Store(h)
	}
	q.st.at(tid, 3)
	q.release(tid)
	return result, found
}

// pop is called by the owner only: it takes from the tail without the lock
// unless it may be racing a thief for the last element.
func (q *queue) pop(tid int) (*item, bool) {
	q.st.enter(tid, "Pop")
	defer q.st.exit(tid)
	t := q.tail.Load() - 1
	q.tail.Store(t)
	q.st.at(tid, 1)
	if q.head.Load() <= t {
		return q.elems[t&q.mask], true
	}
	q.tail.Store(t + 1)
	q.st.at(tid, 2)
	return q.syncPop(tid)
}

func (q *queue) syncPop(tid int) (*item, bool) {
	q.st.enter(tid, "SyncPop")
	defer q.st.exit(tid)
	q.acquire(tid)
	q.st.at(tid, 1)
	var result *item
	found := false
	t := q.tail.Load() - 1
	q.tail.Store(t)
	if q.head.Load() <= t {
		result, found = q.elems[t&q.mask], true
	} else {
		q.tail.Store(t + 1)
	}
	q.st.at(tid, 2)
	if q.head.Load() > t {
		q.head.Store(0)
		q.tail.Store(0)
		found = false
	}
	q.st.at(tid, 3)
	q.release(tid)
	return result, found
}

// push is called by the owner only: it stores at the tail without the lock
// while there is room.
func (q *queue) push(tid int, it *item) {
	q.st.enter(tid, "Push")
	defer q.st.exit(tid)
	t := q.tail.Load()
	q.st.at(tid, 1)
	if t < q.head.Load()+q.mask && t < maxSize {
		q.elems[t&q.mask] = it
		q.tail.Store(t + 1)
		q.st.at(tid, 2)
		return
	}
	q.syncPush(tid, it)
}

func (q *queue) syncPush(tid int, it *item) {
	q.st.enter(tid, "SyncPush")
	defer q.st.exit(tid)
	q.acquire(tid)
	q.st.at(tid, 1)
	h := q.head.Load()
	count := q.tail.Load() - h
	h &= q.mask
	q.head.Store(h)
	q.tail.Store(h + count)
	q.st.at(tid, 2)
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
		q.st.at(tid, 3)
	}
	t := q.tail.Load()
	q.elems[t&q.mask] = it
	q.tail.Store(t + 1)
	q.st.at(tid, 4)
	q.release(tid)
}

// spinLock is the sample's non-blocking lock word (USE_NON_BLOCKING_SYNC);
// acquire and release above spin on it.
type spinLock struct {
	word atomic.Int32
}
