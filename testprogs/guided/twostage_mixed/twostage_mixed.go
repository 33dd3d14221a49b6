// Package twostage_mixed is TwoStage (Rungta's thesis, after Dwyer et
// al.'s benchmark) made hard the way the thesis makes it hard: eight two-
// stage writers and one reader, with idle and busy goroutines and a
// journal prefix. The reader fails when it runs between some writer's two
// stages; the goroutines that take no part in the bug give a scheduler
// many choices that do not matter.
package twostage_mixed

import (
	"sync"
	"testing"
)

const (
	writers = 8  // goroutines that take part in the bug
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

// state is TwoStage's: data2 is derived from data1 in a second stage,
// each stage under its own lock (and no data race: every access holds
// the lock of its variable).
type state struct {
	d1, d2       sync.Mutex
	data1, data2 int
}

// write publishes data1, then derives data2 from it: two stages, two
// critical sections.
func (s *state) write() {
	s.d1.Lock()
	s.data1 = 1
	v := s.data1
	s.d1.Unlock()

	s.d2.Lock()
	s.data2 = v + 1
	s.d2.Unlock()
}

// read checks that data2 was derived from data1: it fails when it runs
// between some writer's two stages.
func (s *state) read(t testing.TB) {
	s.d1.Lock()
	if s.data1 == 0 {
		s.d1.Unlock()
		return
	}
	t1 := s.data1
	s.d1.Unlock()

	s.d2.Lock()
	t2 := s.data2
	s.d2.Unlock()

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
