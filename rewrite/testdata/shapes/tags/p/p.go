// Package p has files for and against a build tag: the test passes only
// when built with -tags gosctshape, as go test -tags gosctshape builds it.
package p

import "sync"

var (
	mu   sync.Mutex
	hits int
)

// Hit counts a call.
func Hit() {
	mu.Lock()
	hits += weight
	mu.Unlock()
}

// Hits returns the sum.
func Hits() int {
	mu.Lock()
	defer mu.Unlock()
	return hits
}
