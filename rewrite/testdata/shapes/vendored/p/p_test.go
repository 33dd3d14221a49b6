package p

import "testing"

func TestSum(t *testing.T) {
	if s := Sum(3); s != 6 {
		t.Fatal(s)
	}
}
