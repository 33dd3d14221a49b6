// Package buggy holds two classic concurrency bugs for gosct's end-to-end
// tests: a lock-order inversion and a lost update.
package buggy

import "sync"

// Account is a balance guarded by a mutex.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Transfer moves n from a to b, locking a then b: two opposite transfers
// deadlock when each holds its first lock.
func Transfer(a, b *Account, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	a.balance -= n
	b.balance += n
}
