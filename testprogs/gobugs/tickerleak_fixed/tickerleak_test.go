package tickerleak

import (
	"testing"
	"time"
)

func TestSetGet(t *testing.T) {
	c := New(time.Second)
	defer c.Close()
	c.Set("a", "1")
	if v, ok := c.Get("a"); !ok || v != "1" {
		t.Errorf("Get(a) = %q, %v; want 1, true", v, ok)
	}
	if _, ok := c.Get("b"); ok {
		t.Error("Get(b) found a value that was never set")
	}
}
