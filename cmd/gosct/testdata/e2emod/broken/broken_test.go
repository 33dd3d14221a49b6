package broken

import "testing"

func TestValue(t *testing.T) {
	if Value() != 0 {
		t.Fatal("nonzero")
	}
}
