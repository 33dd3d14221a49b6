// Package cs_reorder_5_bad is a Go port of SCTBench's CS.reorder_5_bad, the paper's
// adversarial example for delay bounding: setter threads write a = 1 and
// then b = -1, and checker threads assert that they never see one write
// without the other. One preemption of a setter between its writes is
// enough, but round robin runs every setter created before the checker, so
// the delays needed grow with the number of setters.
package cs_reorder_5_bad

import (
	"sync"
	"testing"
)

const (
	setters  = 4
	checkers = 1
)

// prog is the shared state; there are no locks.
type prog struct {
	a, b int
}

// Run creates all setters, then all checkers, and joins them in the same
// order.
func Run(t testing.TB) {
	p := &prog{}
	var setWG, checkWG sync.WaitGroup
	for i := 0; i < setters; i++ {
		setWG.Add(1)
		go func() {
			defer setWG.Done()
			p.set()
		}()
	}
	for i := 0; i < checkers; i++ {
		checkWG.Add(1)
		go func() {
			defer checkWG.Done()
			p.check(t)
		}()
	}
	setWG.Wait()
	checkWG.Wait()
}

func (p *prog) set() {
	p.a = 1
	p.b = -1
}

// check evaluates (a == 0 && b == 0) || (a == 1 && b == -1) with Go's
// short-circuit rules, as the C program does: every operand is a separate
// read of the shared variables.
func (p *prog) check(t testing.TB) {
	if !((p.a == 0 && p.b == 0) || (p.a == 1 && p.b == -1)) {
		t.Errorf("saw a = 1 without b = -1")
	}
}
