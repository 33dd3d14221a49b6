package panicsunused

import (
	"sync"
	"time"
)

var mu sync.Mutex

// Boom panics on the line after locking. Sleep is time's only use: the
// rewriting leaves the import unused, and the lines after it must stay.
func Boom(m map[string]int) int {
	time.Sleep(1)
	mu.Lock()
	defer mu.Unlock()
	return m["x"] / len(m) // PANICLINE
}
