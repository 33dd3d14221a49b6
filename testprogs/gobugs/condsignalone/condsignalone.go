// Package condsignalone models a gate that many goroutines wait on, opened
// with cond.Signal instead of cond.Broadcast: when two goroutines are
// already waiting, only one wakes and the other waits forever.
package condsignalone

import "sync"

// Gate blocks waiters until it is opened.
type Gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

// NewGate returns a closed gate.
func NewGate() *Gate {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// Wait blocks until the gate is open.
func (g *Gate) Wait() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.open {
		g.cond.Wait()
	}
}

// Open opens the gate and releases the waiters.
func (g *Gate) Open() {
	g.mu.Lock()
	g.open = true
	g.cond.Signal()
	g.mu.Unlock()
}
