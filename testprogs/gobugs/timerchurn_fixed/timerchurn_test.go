package timerchurn

import "testing"

func TestChurn(t *testing.T) {
	c := New()
	done := make(chan struct{})
	go func() {
		for i := 0; i < 1000; i++ {
			c.Put(1)
			c.Take(1)
		}
		close(done)
	}()
	<-done
}
