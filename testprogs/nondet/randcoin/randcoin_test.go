package randcoin

import (
	"sync"
	"testing"
)

func TestBalance(t *testing.T) {
	a, b := &Warehouse{items: 4}, &Warehouse{items: 0}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Balance(a, b)
		}()
	}
	wg.Wait()
	if a.items+b.items != 4 {
		t.Errorf("items: %d + %d, want 4 in all", a.items, b.items)
	}
}
