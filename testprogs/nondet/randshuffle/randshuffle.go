// Package randshuffle audits accounts: an auditor locks every account, in
// an order shuffled at random (rand.Shuffle) "so that no account is always
// locked first", sums the balances and unlocks. Two auditors whose orders
// disagree on two accounts can each hold one the other needs.
package randshuffle

import (
	"math/rand"
	"sync"
)

// Account is a balance under a lock.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Audit returns the sum of the balances, with every account locked.
func Audit(accts []*Account) int {
	order := append([]*Account(nil), accts...)
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, a := range order {
		a.mu.Lock()
	}
	sum := 0
	for _, a := range order {
		sum += a.balance
	}
	for _, a := range order {
		a.mu.Unlock()
	}
	return sum
}
