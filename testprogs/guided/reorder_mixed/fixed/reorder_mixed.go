// Package fixed is reorder_mixed (see the parent directory) with the bug fixed:
// the setters and the checker take a mutex around both variables.
// It must pass in every schedule.
package fixed

import (
	"sync"
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

// state is Reorder's, with a mutex around both writes and both reads.
type state struct {
	mu   sync.Mutex
	a, b int
}

func (s *state) set() {
	s.mu.Lock()
	s.a = 1
	s.b = -1
	s.mu.Unlock()
}

func (s *state) check(t testing.TB) {
	s.mu.Lock()
	a, b := s.a, s.b
	s.mu.Unlock()
	if !((a == 0 && b == 0) || (a == 1 && b == -1)) {
		t.Errorf("saw a = %d without b = -1", a)
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
