package timerflush

import (
	"strconv"
	"testing"
	"time"
)

func TestBatcherClose(t *testing.T) {
	out := make(chan []string, 16)
	b := New(out, time.Millisecond)
	for i := 0; i < 5; i++ {
		b.Add(strconv.Itoa(i))
	}
	b.Close()
	n := 0
	for batch := range out {
		n += len(batch)
	}
	if n != 5 {
		t.Errorf("%d entries written, want 5", n)
	}
}
