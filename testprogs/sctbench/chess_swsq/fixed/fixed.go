// Package fixed is chess.SWSQ (see the parent directory) with the
// state-capture vector sized for all three threads up front, so no thread
// ever resizes (and shrinks) it. It must pass in every schedule.
package fixed

import (
	"sync"
	"testing"
)

// Parameters of the SCTBench run (args "2": two stealers; defaults for the
// rest).
const (
	nStealers      = 2
	nItems         = 4
	nStealAttempts = 2
	queueSize      = 2
	numThreads     = nStealers + 1
)

// item is a unit of work; operation counts how often it was processed.
type item struct {
	field int
}

func (it *item) operation() {
	it.field++
}

// Run creates the stealers (thread ids 1 and 2; the owner is 0), then
// pushes all items, then pops as many times as the owner, joins the stealers and checks that each item
// was processed exactly once.
func Run(t testing.TB) {
	st := newStateCapture()
	q := newQueue(queueSize, st)
	items := make([]*item, nItems)
	for i := range items {
		items[i] = new(item)
	}

	var wg sync.WaitGroup
	wg.Add(nStealers)
	for i := 0; i < nStealers; i++ {
		tid := i + 1
		go func() {
			defer wg.Done()
			stealer(q, tid)
		}()
	}

	for i := 0; i < nItems; i++ {
		q.push(0, items[i])
	}
	for i := 0; i < nItems; i++ {
		if it, ok := q.pop(0); ok {
			it.operation()
		}
	}
	wg.Wait()

	for i, it := range items {
		if it.field != 1 {
			t.Errorf("item %d processed %d times, want exactly once", i, it.field)
		}
	}
}

func stealer(q *queue, tid int) {
	q.st.enter(tid, "Stealer")
	defer q.st.exit(tid)
	for i := 0; i < nStealAttempts; i++ {
		q.st.at(tid, i)
		if it, ok := q.steal(tid); ok {
			it.operation()
		}
	}
}
