package cleanupdaemon

import (
	"testing"
	"time"
)

func TestCleanupdaemon(t *testing.T) {
	stop, stopped := make(chan struct{}), make(chan struct{})
	polls := 0
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Microsecond):
				polls++
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-stopped })
}
