package janitor

import (
	"testing"
	"time"
)

func TestJanitor(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	stop := make(chan bool)
	go func() {
		for {
			select {
			case <-tk.C:
			case <-stop:
				tk.Stop()
				return
			}
		}
	}()
}
