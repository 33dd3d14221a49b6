package missingunlock

import "testing"

func TestPollingConsumer(t *testing.T) {
	q := New()
	got := make(chan int)
	go func() {
		for {
			if v, ok := q.TryPop(); ok {
				got <- v
				return
			}
			<-q.Ready()
		}
	}()
	q.Push(7)
	if v := <-got; v != 7 {
		t.Errorf("consumer got %d, want 7", v)
	}
}
