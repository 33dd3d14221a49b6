package exits

import "testing"

func TestFirst(t *testing.T) {
	if got := First(); got != 3 {
		t.Fatalf("got %d", got)
	}
}
