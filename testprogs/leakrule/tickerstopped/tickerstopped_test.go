package tickerstopped

import (
	"testing"
	"time"
)

func TestTickerstopped(t *testing.T) {
	tk := time.NewTicker(time.Microsecond)
	done, exited := make(chan struct{}), make(chan struct{})
	ticks := 0
	go func() {
		defer close(exited)
		for {
			select {
			case <-tk.C:
				ticks++
			case <-done:
				return
			}
		}
	}()
	time.Sleep(100 * time.Microsecond)
	tk.Stop()
	close(done)
	<-exited
}
