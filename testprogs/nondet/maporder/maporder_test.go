package maporder

import (
	"sync"
	"testing"
)

func TestSettle(t *testing.T) {
	accts := map[string]*Account{"alice": {balance: 10}, "bob": {balance: 10}}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i == 0 {
				Settle(accts, map[string]int{"alice": -1, "bob": 1})
			} else {
				Settle(accts, map[string]int{"alice": 2, "bob": -2})
			}
		}(i)
	}
	wg.Wait()
	if s := accts["alice"].balance + accts["bob"].balance; s != 20 {
		t.Errorf("total %d, want 20", s)
	}
}
