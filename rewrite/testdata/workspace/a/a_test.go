package a

import (
	"sync"
	"testing"

	"example.com/b"
)

func TestCount(t *testing.T) {
	var c b.C
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
		t.Fatalf("count %d", c.N())
	}
}
