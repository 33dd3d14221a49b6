// Package misc_safestack ports misc.safestack from SCTBench: Dmitry Vyukov's
// lock-free stack over a fixed array of three items (posted to the CHESS
// forum). Three goroutines each pop an item, stamp it with their id, check
// the stamp and push the item back, twice. An ABA interleaving of pop's
// swap/restore and compare-and-swap lets two goroutines hold the same item,
// and one sees the other's stamp. The paper reports that it needs at least 3
// threads and 5 preemptions; no technique found it within 100,000 schedules.
package misc_safestack

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

const (
	numThreads = 3
	numItems   = 3
	rounds     = 2
)

type stackItem struct {
	value int // volatile in C: a plain shared access
	next  atomic.Int32
}

type safeStack struct {
	head  atomic.Int32
	count atomic.Int32
	items [numItems]stackItem
}

func newSafeStack(pushCount int) *safeStack {
	s := &safeStack{}
	s.head.Store(0)
	s.count.Store(int32(pushCount))
	for i := 0; i < pushCount-1; i++ {
		s.items[i].next.Store(int32(i + 1))
	}
	s.items[pushCount-1].next.Store(-1)
	return s
}

// pop returns the index of an item it took off the stack, or -1 when at most
// one item is left.
func (s *safeStack) pop() int {
	for s.count.Load() > 1 {
		head1 := s.head.Load()
		next1 := s.items[head1].next.Swap(-1)
		if next1 >= 0 {
			if s.head.CompareAndSwap(head1, next1) {
				s.count.Add(-1)
				return int(head1)
			}
			s.items[head1].next.Swap(next1)
		} else {
			runtime.Gosched()
		}
	}
	return -1
}

func (s *safeStack) push(index int) {
	head1 := s.head.Load()
	for {
		s.items[index].next.Store(head1)
		if s.head.CompareAndSwap(head1, int32(index)) {
			break
		}
		// C++'s compare_exchange_strong reloads head1 on failure.
		head1 = s.head.Load()
	}
	s.count.Add(1)
}

// Run starts the three goroutines and joins them.
func Run(t testing.TB) {
	s := newSafeStack(numItems)
	var wg sync.WaitGroup
	wg.Add(numThreads)
	for idx := 0; idx < numThreads; idx++ {
		id := idx
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				var elem int
				for {
					elem = s.pop()
					if elem >= 0 {
						break
					}
					runtime.Gosched()
				}
				s.items[elem].value = id
				if v := s.items[elem].value; v != id {
					t.Errorf("thread %d: item %d holds %d: two threads own the same item", id, elem, v)
				}
				s.push(elem)
			}
		}()
	}
	wg.Wait()
}
