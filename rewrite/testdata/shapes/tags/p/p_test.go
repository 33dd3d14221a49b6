package p

import (
	"sync"
	"testing"
)

func TestHit(t *testing.T) {
	mu.Lock()
	hits = 0
	mu.Unlock()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Hit()
		}()
	}
	wg.Wait()
	if Hits() != 2 {
		t.Fatalf("got %d (built without -tags gosctshape?)", Hits())
	}
}
