package janitorwaiter

import (
	"testing"
	"time"
)

func TestJanitorwaiter(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	stop := make(chan bool)
	go func() {
		for {
			select {
			case <-tk.C:
			case <-stop:
				return
			}
		}
	}()
	go func() { <-stop }()
}
