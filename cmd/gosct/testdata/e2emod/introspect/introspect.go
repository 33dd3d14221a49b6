// Package introspect is a correct program whose tests look at the process
// as leak checkers and seeded tests do: its goroutine dump, math/rand's
// seeded sequence, its allocations, the collection of what they dropped.
// Under gosct they must see what go test shows them.
package introspect

import "math/rand"

// Park starts n workers that wait on stop, and returns when they run.
func Park(n int, stop chan struct{}) {
	started := make(chan struct{})
	for i := 0; i < n; i++ {
		go worker(started, stop)
	}
	for i := 0; i < n; i++ {
		<-started
	}
}

func worker(started, stop chan struct{}) {
	started <- struct{}{}
	<-stop
}

// Mask is a frame mask as websocket clients draw it.
func Mask() [4]byte {
	n := rand.Uint32()
	return [4]byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)}
}
