// Package cryptorand picks which of two replicas to write first with
// crypto/rand (a "secure" coin, crypto/rand.Int over rand.Reader), and
// locks them in that order: two writers whose coins differ lock the
// replicas in opposite orders and can deadlock.
package cryptorand

import (
	"crypto/rand"
	"math/big"
	"sync"
)

// Replica is a copy of a value under a lock.
type Replica struct {
	mu  sync.Mutex
	val int
}

// Write sets v on both replicas, holding both locks.
func Write(a, b *Replica, v int) {
	first, second := a, b
	coin, err := rand.Int(rand.Reader, big.NewInt(2))
	if err == nil && coin.Int64() == 1 {
		first, second = b, a
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	a.val, b.val = v, v
}
