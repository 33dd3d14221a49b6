// Package reorder_mixed is Reorder (Rungta's thesis, after Dwyer et al.'s
// benchmark) made hard the way the thesis makes it hard: eight setters and
// one checker, with idle and busy goroutines and a journal prefix. The
// checker fails when it runs between some setter's two writes; the
// goroutines that take no part in the bug give a scheduler many choices
// that do not matter.
package reorder_mixed

import (
	"sync"
	"sync/atomic"
	"testing"
)

const (
	setters = 8  // goroutines that take part in the bug
	idle    = 8  // goroutines that only wait for the end of the test
	busy    = 4  // goroutines that work on state of their own
	rounds  = 10 // iterations of each busy goroutine
	prefix  = 10 // journal entries each involved goroutine writes before its part
)

// shard is the private state of one busy goroutine.
type shard struct {
	mu   sync.Mutex
	hits int
}

// journal is written by every goroutine involved in the bug before it
// does its part: a long prefix of scheduling points.
type journal struct {
	mu      sync.Mutex
	entries []int
}

func (j *journal) fill(id, n int) {
	for i := 0; i < n; i++ {
		j.mu.Lock()
		j.entries[id]++
		j.mu.Unlock()
	}
}

// work is a busy goroutine: many scheduling points, none on the state
// the bug is about.
func work(sh *shard, tokens chan int, n int) {
	for i := 0; i < n; i++ {
		sh.mu.Lock()
		sh.hits++
		sh.mu.Unlock()
		tokens <- i
		<-tokens
	}
}

// state is Reorder's: a and b change together, without a lock. They are
// atomic, so the program has no data race: the bug is the order.
type state struct {
	a, b atomic.Int32
}

// set writes a, then b.
func (s *state) set() {
	s.a.Store(1)
	s.b.Store(-1)
}

// check asserts that it never sees one write without the other: it fails
// when it runs between some setter's two writes.
func (s *state) check(t testing.TB) {
	if !((s.a.Load() == 0 && s.b.Load() == 0) || (s.a.Load() == 1 && s.b.Load() == -1)) {
		t.Errorf("saw a = %d without b = -1", s.a.Load())
	}
}

// Run starts the busy goroutines, the idle ones, the setters and last the
// checker, waits for all but the idle ones, then lets those go.
func Run(t testing.TB) {
	s := &state{}
	j := &journal{entries: make([]int, setters+1)}
	quit := make(chan struct{})
	var wg, idleWG sync.WaitGroup
	for i := 0; i < busy; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(&shard{}, make(chan int, 1), rounds)
		}()
	}
	for i := 0; i < idle; i++ {
		idleWG.Add(1)
		go func() {
			defer idleWG.Done()
			<-quit
		}()
	}
	for i := 0; i < setters; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			j.fill(id, prefix)
			s.set()
		}(i)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		j.fill(setters, prefix)
		s.check(t)
	}()
	wg.Wait()
	close(quit)
	idleWG.Wait()
}
