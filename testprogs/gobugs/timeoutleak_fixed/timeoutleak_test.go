package timeoutleak

import (
	"testing"
	"time"
)

func TestGetWithTimeout(t *testing.T) {
	c := NewClient(&Backend{Latency: time.Millisecond})
	defer c.Close()
	v, err := c.Get("k", time.Millisecond)
	switch {
	case err == ErrTimeout:
		// A timeout is an acceptable answer when the backend is as slow as the deadline.
	case err != nil:
		t.Fatalf("Get: unexpected error %v", err)
	case v != "value-of-k":
		t.Errorf("Get = %q, want %q", v, "value-of-k")
	}
}
