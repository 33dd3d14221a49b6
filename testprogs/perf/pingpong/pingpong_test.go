package pingpong

import "testing"

func TestCollect(t *testing.T) {
	if got := Collect(); got != 20 {
		t.Fatalf("Collect() = %d, want 20", got)
	}
}
