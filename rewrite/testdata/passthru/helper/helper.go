// Package helper is imported by package user: instrumenting user's tests
// must instrument it too.
package helper

import "sync"

var mu sync.Mutex

// Locked runs f holding the package's mutex.
func Locked(f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}
