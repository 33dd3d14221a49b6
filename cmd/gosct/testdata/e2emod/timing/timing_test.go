package timing

import (
	"sync"
	"testing"
	"time"
)

func TestErrorsExpire(t *testing.T) {
	r := NewRecent(10 * time.Millisecond)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); r.Record() }()
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	if n := r.Count(); n != 1 {
		t.Fatalf("%d recent errors, want 1", n)
	}
}

func TestGiveItAMillisecond(t *testing.T) {
	var f Flag
	go f.Set()
	time.Sleep(time.Millisecond) // give it a millisecond
	if !f.IsSet() {
		t.Fatal("not set after a millisecond")
	}
}
