package correct

import (
	"sync"
	"testing"
)

func TestCounter(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if got := c.Get(); got != 3 {
		t.Fatalf("count %d, want 3", got)
	}
}

func TestPipeline(t *testing.T) {
	in, out := make(chan int), make(chan int, 1)
	go func() {
		sum := 0
		for v := range in {
			sum += v
		}
		out <- sum
	}()
	for i := 1; i <= 3; i++ {
		in <- i
	}
	close(in)
	if s := <-out; s != 6 {
		t.Fatalf("sum %d, want 6", s)
	}
}

// TestHandoff is small enough for a systematic search to cover every
// schedule.
func TestHandoff(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- 42 }()
	if v := <-ch; v != 42 {
		t.Fatalf("got %d", v)
	}
}
