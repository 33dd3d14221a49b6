// Package randcoin moves stock between two warehouses. Each mover flips a
// coin (math/rand) to decide which warehouse it serves first, and locks
// them in that order: two movers whose coins differ lock in opposite
// orders, and deadlock if each takes its first lock before the other takes
// its second.
package randcoin

import (
	"math/rand"
	"sync"
)

// Warehouse holds a count of items.
type Warehouse struct {
	mu    sync.Mutex
	items int
}

// Balance moves one item from the fuller warehouse to the other, locking
// them in an order picked at random "to spread the contention".
func Balance(a, b *Warehouse) {
	first, second := a, b
	if rand.Intn(2) == 1 {
		first, second = b, a
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	if a.items > b.items {
		a.items--
		b.items++
	} else if b.items > a.items {
		b.items--
		a.items++
	}
}
