// Package cs_account_bad is a Go port of SCTBench's CS.account_bad (from the
// ESBMC benchmarks): a checker thread asserts a wrong final balance once it
// sees that both the deposit and the withdrawal are done.
package cs_account_bad

import (
	"sync"
	"testing"
)

// account is the shared bank account and the amounts moved.
type account struct {
	m                         sync.Mutex
	x, y, z                   int
	balance                   int
	depositDone, withdrawDone bool
}

// Run starts the checker, the deposit and the withdrawal, in that order.
func Run(t testing.TB) {
	a := &account{x: 1, y: 2, z: 4}
	a.balance = a.x

	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); a.check(t) }()
	go func() { defer wg.Done(); a.deposit() }()
	go func() { defer wg.Done(); a.withdraw() }()
	// The C main returns without joining; SCTBench still runs the threads
	// to completion, so the test only waits for them at the very end.
	wg.Wait()
}

func (a *account) deposit() {
	a.m.Lock()
	a.balance += a.y
	a.depositDone = true
	a.m.Unlock()
}

func (a *account) withdraw() {
	a.m.Lock()
	a.balance -= a.z
	a.withdrawDone = true
	a.m.Unlock()
}

// check asserts the balance the benchmark's author expected, x-y-z, which
// is wrong: the real balance is x+y-z.
func (a *account) check(t testing.TB) {
	a.m.Lock()
	if a.depositDone && a.withdrawDone {
		if want := (a.x - a.y) - a.z; a.balance != want {
			t.Errorf("balance = %d after deposit and withdrawal, want %d", a.balance, want)
		}
	}
	a.m.Unlock()
}
