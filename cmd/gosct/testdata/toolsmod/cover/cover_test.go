package cover

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestEverything(t *testing.T) {
	if got := Everything(); got != 2 {
		t.Errorf("Everything() = %d, want 2", got)
	}
}

func TestCounter(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		t.Errorf("n = %d, want 2", c.n)
	}
}

// TestOrder has one pair of conflicting points, two stores of one
// variable by two goroutines, whose two orders a systematic search tries.
func TestOrder(t *testing.T) {
	var x atomic.Int32
	done := make(chan bool)
	go func() {
		x.Store(1)
		done <- true
	}()
	x.Store(2)
	<-done
}
