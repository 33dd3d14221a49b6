// Package abba models a bank transfer that locks the source account, then
// the destination. Two opposite transfers running at once each hold one
// account and wait for the other: the classic AB-BA deadlock.
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
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	if from.balance < amount {
		return ErrInsufficient
	}
	from.balance -= amount
	to.balance += amount
	return nil
}
