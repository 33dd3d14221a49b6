package cache

import "testing"

func TestGet(t *testing.T) {
	if n := Get("workers"); n != 2 {
		t.Fatalf("got %d, want 2", n)
	}
}
