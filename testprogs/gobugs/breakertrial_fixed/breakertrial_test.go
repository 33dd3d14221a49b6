package breakertrial

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestHalfOpenAdmitsOneTrial(t *testing.T) {
	b := &Breaker{MaxFailures: 2, Cooldown: 50 * time.Millisecond}
	down := errors.New("down")
	for i := 0; i < 2; i++ {
		if err := b.Call(func() error { return down }); err != down {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if err := b.Call(func() error { return nil }); err != ErrOpen {
		t.Fatalf("the open breaker let a call through: %v", err)
	}
	time.Sleep(50 * time.Millisecond) // the cooldown
	var calls atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Call(func() error { calls.Add(1); return down })
		}()
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("%d calls reached the backend after the cooldown, want exactly 1 trial", n)
	}
}
