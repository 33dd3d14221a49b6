package mixed

// #include <stdlib.h>
import "C"

import "sync"

var cmu sync.Mutex

// Abs calls C with a mutex held.
func Abs(x int) int {
	cmu.Lock()
	defer cmu.Unlock()
	return int(C.abs(C.int(x)))
}
