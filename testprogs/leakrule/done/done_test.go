package done

import (
	"testing"
	"time"
)

func TestDone(t *testing.T) {
	ch := make(chan int, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		ch <- 1
	}()
}
