package util

import "testing"

func TestCounter(t *testing.T) {
	var c Counter
	Parallel(3, func(int) { c.Inc() })
	if c.Value() != 3 {
		t.Fatalf("count %d, want 3", c.Value())
	}
}

func TestPipeline(t *testing.T) {
	in, out := make(chan int), make(chan int)
	go func() {
		for v := range in {
			out <- v * 2
		}
		close(out)
	}()
	go func() {
		for i := 0; i < 3; i++ {
			in <- i
		}
		close(in)
	}()
	sum := 0
	for v := range out {
		sum += v
	}
	if sum != 6 {
		t.Fatalf("sum %d, want 6", sum)
	}
}
