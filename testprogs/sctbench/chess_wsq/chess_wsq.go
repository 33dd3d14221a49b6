// Package chess_wsq ports chess.WSQ from SCTBench (the CHESS work-stealing queue
// samples): an owner pushes and pops items while two thieves steal them, and
// every item must be processed exactly once. The queue carries the injected
// bug "BUG3", an off-by-one room test in push.
package chess_wsq

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

// Run creates the stealers, then pushes and pops as the owner, joins the
// stealers and checks that each item was processed exactly once.
func Run(t testing.TB) {
	q := newQueue(queueSize)
	items := make([]*item, nItems)
	for i := range items {
		items[i] = new(item)
	}

	var wg sync.WaitGroup
	wg.Add(nStealers)
	for i := 0; i < nStealers; i++ {
		go func() {
			defer wg.Done()
			stealer(q)
		}()
	}

	for i := 0; i < nItems/2; i++ {
		q.push(items[2*i])
		q.push(items[2*i+1])
		if it, ok := q.pop(); ok {
			it.operation()
		}
	}
	for i := 0; i < nItems/2; i++ {
		if it, ok := q.pop(); ok {
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

func stealer(q *queue) {
	for i := 0; i < nStealAttempts; i++ {
		if it, ok := q.steal(); ok {
			it.operation()
		}
	}
}
