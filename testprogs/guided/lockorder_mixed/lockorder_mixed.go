// Package lockorder_mixed is a lock-order deadlock over three goroutines:
// three movers each take one account's lock, then the next one's, one of
// them through a call, so that the lock graph has a cycle of three locks
// and no two of the movers can deadlock by themselves. With idle and busy
// goroutines and a journal prefix, as the thesis makes its programs hard:
// the deadlock needs every mover to hold its first lock at once.
package lockorder_mixed

import (
	"sync"
	"testing"
)

const (
	idle   = 8  // goroutines that only wait for the end of the test
	busy   = 8  // goroutines that work on state of their own
	rounds = 20 // iterations of each busy goroutine
	prefix = 20 // journal entries each mover writes before its move
)

// shard is the private state of one busy goroutine.
type shard struct {
	mu   sync.Mutex
	hits int
}

// journal is written by every mover before it moves: a long prefix of
// scheduling points.
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

// ledger holds three accounts, each under its own lock.
type ledger struct {
	a, b, c    sync.Mutex
	na, nb, nc int
}

// credit adds to account b.
func (l *ledger) credit() {
	l.b.Lock()
	l.nb++
	l.b.Unlock()
}

// settle adds to account a.
func (l *ledger) settle() {
	l.a.Lock()
	l.na++
	l.a.Unlock()
}

// moveAB moves from a to b: a's lock, then b's (in credit).
func (l *ledger) moveAB() {
	l.a.Lock()
	l.credit()
	l.na--
	l.a.Unlock()
}

// moveBC moves from b to c: b's lock, then c's.
func (l *ledger) moveBC() {
	l.b.Lock()
	l.c.Lock()
	l.nb--
	l.nc++
	l.c.Unlock()
	l.b.Unlock()
}

// moveCA moves from c to a: c's lock, then a's (in settle).
func (l *ledger) moveCA() {
	l.c.Lock()
	l.settle()
	l.nc--
	l.c.Unlock()
}

// Run starts the busy goroutines, the idle ones and the three movers,
// waits for all but the idle ones, then lets those go.
func Run(t testing.TB) {
	l := &ledger{}
	j := &journal{entries: make([]int, 3)}
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
	for i, move := range []func(){l.moveAB, l.moveBC, l.moveCA} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.fill(i, prefix)
			move()
		}()
	}
	wg.Wait()
	close(quit)
	idleWG.Wait()
	if l.na != 0 || l.nb != 0 || l.nc != 0 {
		t.Errorf("the moves do not balance: %d %d %d", l.na, l.nb, l.nc)
	}
}
