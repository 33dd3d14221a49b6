package condsignalone

import (
	"sync"
	"testing"
)

func TestOpenReleasesAllWaiters(t *testing.T) {
	g := NewGate()
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.Wait()
			mu.Lock()
			passed++
			mu.Unlock()
		}()
	}
	g.Open()
	wg.Wait()
	if passed != 2 {
		t.Errorf("%d waiters passed, want 2", passed)
	}
}
