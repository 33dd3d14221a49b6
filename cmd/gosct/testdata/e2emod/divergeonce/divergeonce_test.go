package divergeonce

import (
	"sync"
	"testing"
)

var process = Process()

// TestOrder fails when its goroutine runs before it looks; in the second
// process of the run, it first takes a lock nobody else takes.
func TestOrder(t *testing.T) {
	var mu, other sync.Mutex
	if process == 2 {
		other.Lock()
		other.Unlock()
	}
	set := false
	done := make(chan struct{})
	go func() {
		mu.Lock()
		set = true
		mu.Unlock()
		close(done)
	}()
	mu.Lock()
	saw := set
	mu.Unlock()
	<-done
	if saw {
		t.Error("the goroutine ran before the test looked")
	}
}
