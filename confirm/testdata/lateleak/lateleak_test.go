package lateleak

import (
	"testing"
	"time"
)

// TestLateLeak returns without receiving: the timer's goroutine blocks
// in its send for ever, 1.5 s after the test.
func TestLateLeak(t *testing.T) {
	ch := make(chan int)
	Notify(ch, 1500*time.Millisecond)
}
