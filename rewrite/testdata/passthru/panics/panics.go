package panics

import "sync"

var mu sync.Mutex

// Boom panics on the line after locking.
func Boom(m map[string]int) int {
	mu.Lock()
	defer mu.Unlock()
	return m["x"] / len(m) // PANICLINE
}
