// Package abba is the fixed version: Transfer locks the two accounts in
// the order of their IDs, whatever the direction of the transfer.
package abba

import (
	"errors"
	"sync"
)

// ErrInsufficient is returned when the source balance is too low.
var ErrInsufficient = errors.New("abba: insufficient funds")

// Account is a balance guarded by a mutex.
type Account struct {
	mu      sync.Mutex
	ID      int
	balance int
}

// NewAccount returns an account holding balance.
func NewAccount(id, balance int) *Account { return &Account{ID: id, balance: balance} }

// Balance returns the current balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Transfer moves amount from one account to the other atomically.
func Transfer(from, to *Account, amount int) error {
	first, second := from, to
	if second.ID < first.ID {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if from.balance < amount {
		return ErrInsufficient
	}
	from.balance -= amount
	to.balance += amount
	return nil
}
