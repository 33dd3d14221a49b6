package sametimer

import (
	"testing"
	"time"
)

func TestExpiryAndRefresh(t *testing.T) {
	c := New(func(string) int { return 42 })
	c.Put("a", 1, 10*time.Millisecond)
	c.Wait()
	if n, size := c.Len(); n != size {
		t.Errorf("%d entries, size count %d", n, size)
	}
}
