package lazyinit

import "testing"

func TestConcurrentFirstUse(t *testing.T) {
	var c Client
	other := make(chan *Conn, 1)
	go func() { other <- c.Conn() }()
	mine := c.Conn()
	theirs := <-other
	if mine != theirs {
		t.Errorf("callers got different connections %d and %d", mine.ID, theirs.ID)
	}
	if n := c.Dials(); n != 1 {
		t.Errorf("dialed %d times, want 1", n)
	}
}
