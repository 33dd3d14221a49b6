package randjitter

import "testing"

func TestCall(t *testing.T) {
	v, err := Call(21)
	if err == nil && v != 42 {
		t.Errorf("Call(21) = %d, want 42", v)
	}
}
