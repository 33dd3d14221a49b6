// Package maporder settles a batch of transfers by locking every account
// the batch touches, in the order of a map range over the accounts by
// name. Go randomizes that order for every range statement: two batches
// over the same accounts lock them in different orders and can deadlock.
package maporder

import "sync"

// Account is a balance under a lock.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Settle applies the deltas, locking all the accounts involved first.
func Settle(accts map[string]*Account, deltas map[string]int) {
	for name := range deltas { // BUG: map order is no lock order
		accts[name].mu.Lock()
	}
	for name, d := range deltas {
		accts[name].balance += d
	}
	for name := range deltas {
		accts[name].mu.Unlock()
	}
}
