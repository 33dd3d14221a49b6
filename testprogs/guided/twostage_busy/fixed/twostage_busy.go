// Package fixed is twostage_busy (see the parent directory) with the bug fixed:
// each writer holds d1 across both stages and the reader holds d1 while it reads data2.
// It must pass in every schedule.
package fixed

import (
	"sync"
	"testing"
)

const (
	writers = 4  // goroutines that take part in the bug
	idle    = 0  // goroutines that only wait for the end of the test
	busy    = 8  // goroutines that work on state of their own
	rounds  = 12 // iterations of each busy goroutine
	prefix  = 0  // journal entries each involved goroutine writes before its part
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

// state is TwoStage's, with d1 held across both stages (lock order d1
// then d2 everywhere).
type state struct {
	d1, d2       sync.Mutex
	data1, data2 int
}

func (s *state) write() {
	s.d1.Lock()
	s.data1 = 1
	s.d2.Lock()
	s.data2 = s.data1 + 1
	s.d2.Unlock()
	s.d1.Unlock()
}

func (s *state) read(t testing.TB) {
	s.d1.Lock()
	if s.data1 == 0 {
		s.d1.Unlock()
		return
	}
	t1 := s.data1
	s.d2.Lock()
	t2 := s.data2
	s.d2.Unlock()
	s.d1.Unlock()

	if t2 != t1+1 {
		t.Errorf("bug found: data1=%d but data2=%d", t1, t2)
	}
}

// Run starts the busy goroutines, the idle ones, the writers and last the
// reader, waits for all but the idle ones, then lets those go.
func Run(t testing.TB) {
	s := &state{}
	j := &journal{entries: make([]int, writers+1)}
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
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			j.fill(id, prefix)
			s.write()
		}(i)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		j.fill(writers, prefix)
		s.read(t)
	}()
	wg.Wait()
	close(quit)
	idleWG.Wait()
}
