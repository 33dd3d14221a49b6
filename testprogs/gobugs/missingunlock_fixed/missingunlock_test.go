package missingunlock

import (
	"runtime"
	"testing"
)

func TestPollingConsumer(t *testing.T) {
	var q Queue
	got := make(chan int)
	go func() {
		for {
			if v, ok := q.TryPop(); ok {
				got <- v
				return
			}
			runtime.Gosched()
		}
	}()
	q.Push(7)
	if v := <-got; v != 7 {
		t.Errorf("consumer got %d, want 7", v)
	}
}
