package p

import (
	"sync"
	"testing"
)

func TestInc(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if c.N() != 2 {
		t.Fatalf("got %d", c.N())
	}
}
