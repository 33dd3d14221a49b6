package mixed

import "sync"

var gmu sync.Mutex

// Twice doubles x under a mutex.
func Twice(x int) int {
	gmu.Lock()
	defer gmu.Unlock()
	return 2 * x
}
