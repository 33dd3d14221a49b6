package randshuffle

import (
	"sync"
	"testing"
)

func TestAudits(t *testing.T) {
	accts := []*Account{{balance: 1}, {balance: 2}, {balance: 3}}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s := Audit(accts); s != 6 {
				t.Errorf("Audit = %d, want 6", s)
			}
		}()
	}
	wg.Wait()
}
