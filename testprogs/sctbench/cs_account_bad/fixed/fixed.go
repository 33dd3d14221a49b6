// Package fixed is CS.account_bad (see the parent directory) with the
// checker asserting the right final balance, x+y-z, once it sees that both
// the deposit and the withdrawal are done.
package fixed

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

// check asserts the final balance once both updates are done.
func (a *account) check(t testing.TB) {
	a.m.Lock()
	if a.depositDone && a.withdrawDone {
		if want := (a.x + a.y) - a.z; a.balance != want {
			t.Errorf("balance = %d after deposit and withdrawal, want %d", a.balance, want)
		}
	}
	a.m.Unlock()
}
