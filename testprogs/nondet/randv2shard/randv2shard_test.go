package randv2shard

import (
	"sync"
	"testing"
)

func TestHits(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Hit()
		}()
	}
	wg.Wait()
	if got := c.Total(); got != 2 {
		t.Errorf("Total = %d, want 2", got)
	}
}
