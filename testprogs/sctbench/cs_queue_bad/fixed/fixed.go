// Package fixed is CS.queue_bad (see the parent directory) with the bug
// fixed: the enqueuer records values by the number of values enqueued and
// the dequeuer looks them up by the number of values dequeued, instead of
// both using their loop counters.
package fixed

import (
	"sync"
	"testing"
)

// size is the queue's capacity and the number of values exchanged.
const size = 20

// queue is a fixed-size FIFO with no locking of its own.
type queue struct {
	element    [size]int
	head, tail int
	amount     int
}

func (q *queue) enqueue(x int) int {
	q.element[q.tail] = x
	q.amount++
	if q.tail == size {
		q.tail = 1
	} else {
		q.tail++
	}
	return 0
}

func (q *queue) dequeue() int {
	x := q.element[q.head]
	q.amount--
	if q.head == size {
		q.head = 1
	} else {
		q.head++
	}
	return x
}

func (q *queue) empty() bool { return q.head == q.tail }

// prog is the shared state.
type prog struct {
	m                        sync.Mutex
	queue                    queue
	storedElements           [size]int
	enqueueFlag, dequeueFlag bool
}

// Run checks the queue starts empty, starts both threads and joins them.
func Run(t testing.TB) {
	p := &prog{enqueueFlag: true}
	if !p.queue.empty() {
		t.Fatalf("new queue is not empty")
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.enqueuer(t) }()
	go func() { defer wg.Done(); p.dequeuer(t) }()
	wg.Wait()
}

func (p *prog) enqueuer(t testing.TB) {
	p.m.Lock()
	value := 0
	if p.queue.enqueue(value) != 0 {
		t.Errorf("enqueue(%d) failed", value)
	}
	p.storedElements[0] = value
	if p.queue.empty() {
		t.Errorf("queue empty after an enqueue")
	}
	p.m.Unlock()

	enqueued := 1
	for i := 0; i < size-1; i++ {
		p.m.Lock()
		if p.enqueueFlag {
			value++
			p.queue.enqueue(value)
			p.storedElements[enqueued] = value
			enqueued++
			p.enqueueFlag = false
			p.dequeueFlag = true
		}
		p.m.Unlock()
	}
}

func (p *prog) dequeuer(t testing.TB) {
	dequeued := 0
	for i := 0; i < size; i++ {
		p.m.Lock()
		if p.dequeueFlag {
			if got, want := p.queue.dequeue(), p.storedElements[dequeued]; got != want {
				t.Errorf("value number %d is %d, stored value is %d", dequeued, got, want)
			}
			dequeued++
			p.dequeueFlag = false
			p.enqueueFlag = true
		}
		p.m.Unlock()
	}
}
