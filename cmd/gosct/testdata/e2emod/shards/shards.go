// Package shards is the search that gosct test --shard divides in the
// end-to-end tests: a correct test whose dfs search exhausts in a few
// thousand schedules, and a test with two bugs that a fraction of the
// schedules each hit.
package shards

import "sync"

// Tally counts under a lock.
type Tally struct {
	mu sync.Mutex
	n  int
}

// Add adds one.
func (t *Tally) Add() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

// N is the count.
func (t *Tally) N() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// Racy counts without a lock: two increments can lose one.
type Racy struct{ n int }

// Add adds one, as a read and a write.
func (r *Racy) Add() { r.n++ }

// Pair moves between two locks taken in the order given: two Moves in
// opposite orders can deadlock.
func Pair(a, b *sync.Mutex) {
	a.Lock()
	b.Lock()
	b.Unlock()
	a.Unlock()
}
