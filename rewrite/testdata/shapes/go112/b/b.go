// Package b is an indirect dependency.
package b

import "sync"

var mu sync.Mutex

// Value returns 21.
func Value() int {
	mu.Lock()
	defer mu.Unlock()
	return 21
}
