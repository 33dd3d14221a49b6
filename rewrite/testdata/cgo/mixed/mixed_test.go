package mixed

import "testing"

func TestMixed(t *testing.T) {
	if Abs(-2) != 2 || Twice(2) != 4 {
		t.Fatal("wrong")
	}
}
