// Package chess_iwsqws ports chess.IWSQWS (CHESS's InterlockedWorkStealQueueWithState test) from
// SCTBench. The queue itself is correct here; the bug is in the CHESS
// state-capture bookkeeping that every queue operation updates: an
// unsynchronised per-thread stack vector that one thief can shrink under the
// other, whose next bounds-checked access then panics (an uncaught
// std::out_of_range in the original).
package chess_iwsqws

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
)

// item is a unit of work; operation counts how often it was processed.
type item struct {
	field int
}

func (it *item) operation() {
	it.field++
}

// Run creates the stealers (thread ids 1 and 2; the owner is 0), then
// pushes two items and pops one, twice, then pops twice more as the owner, joins the stealers and checks that each item
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

	for i := 0; i < nItems/2; i++ {
		q.push(0, items[2*i])
		q.push(0, items[2*i+1])
		if it, ok := q.pop(0); ok {
			it.operation()
		}
	}
	for i := 0; i < nItems/2; i++ {
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
