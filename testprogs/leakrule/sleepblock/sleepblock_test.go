package sleepblock

import (
	"testing"
	"time"
)

func TestSleepblock(t *testing.T) {
	ch := make(chan int)
	go func() {
		time.Sleep(200 * time.Millisecond)
		ch <- 1
	}()
}
