// Package callchain_mixed is TwoStage (Rungta's thesis, after Dwyer et
// al.'s benchmark) with its check at the end of a chain of calls: the
// auditor takes a snapshot of both values, each under its lock, and hands
// them down report and verify to the branch that fails, which reads only
// its parameters. Eight two-stage writers and one auditor, with idle and
// busy goroutines and a journal prefix. The auditor fails when it takes
// its snapshot between some writer's two stages.
package callchain_mixed

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

// snapshot reads data1, then data2, each under its lock.
func (s *state) snapshot() (int, int) {
	s.d1.Lock()
	t1 := s.data1
	s.d1.Unlock()

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
