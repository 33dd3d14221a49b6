package chanlock

import "testing"

func TestReadWhileDelivering(t *testing.T) {
	c := NewConn()
	got := make(chan string, 1)
	go func() { got <- c.ReadOne() }()
	c.Deliver("hello")
	if msg := <-got; msg != "hello" {
		t.Errorf("ReadOne = %q, want hello", msg)
	}
	if p := c.Pending(); p != 0 {
		t.Errorf("Pending = %d, want 0", p)
	}
}
