package errorsexpire

import (
	"sync"
	"testing"
	"time"
)

func TestErrorsExpire(t *testing.T) {
	r := &recent{window: 10 * time.Millisecond}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); r.record() }()
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n != 1 {
		t.Fatalf("%d recent errors, want 1", r.n)
	}
}
