package cryptorand

import (
	"sync"
	"testing"
)

func TestWrites(t *testing.T) {
	a, b := &Replica{}, &Replica{}
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			Write(a, b, v)
		}(i)
	}
	wg.Wait()
	if a.val != b.val {
		t.Errorf("replicas differ: %d, %d", a.val, b.val)
	}
}
