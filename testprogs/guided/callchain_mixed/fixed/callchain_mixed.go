// Package fixed is callchain_mixed (see the parent directory) with the bug fixed:
// each writer holds d1 across both stages and the snapshot holds d1 while it reads data2.
// It must pass in every schedule.
package fixed

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

// state is TwoStage's, with d1 held across both stages.
type state struct {
	d1, d2       sync.Mutex
	data1, data2 int
}

// write publishes data1, then derives data2 from it, holding d1 across
// both stages (lock order d1 then d2 everywhere).
func (s *state) write() {
	s.d1.Lock()
	s.data1 = 1
	s.d2.Lock()
	s.data2 = s.data1 + 1
	s.d2.Unlock()
	s.d1.Unlock()
}

// snapshot reads data1, then data2, holding d1 throughout.
func (s *state) snapshot() (int, int) {
	s.d1.Lock()
	defer s.d1.Unlock()
	t1 := s.data1
	s.d2.Lock()
	defer s.d2.Unlock()
	return t1, s.data2
}

// audit checks a snapshot of the state, through report and verify.
func audit(t testing.TB, s *state) {
	t1, t2 := s.snapshot()
	report(t, t1, t2)
}

func report(t testing.TB, t1, t2 int) {
	verify(t, t1, t2)
}

// verify fails when data2 was not derived from the data1 it saw: the
// snapshot was taken between some writer's two stages.
func verify(t testing.TB, t1, t2 int) {
	if t1 != 0 && t2 != t1+1 {
		t.Errorf("bug found: data1=%d but data2=%d", t1, t2)
	}
}

// Run starts the busy goroutines, the idle ones, the writers and last the
// auditor, waits for all but the idle ones, then lets those go.
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
		audit(t, s)
	}()
	wg.Wait()
	close(quit)
	idleWG.Wait()
}
