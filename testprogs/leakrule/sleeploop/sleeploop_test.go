package sleeploop

import (
	"testing"
	"time"
)

func TestSleeploop(t *testing.T) {
	go func() {
		for {
			time.Sleep(time.Millisecond)
		}
	}()
}
