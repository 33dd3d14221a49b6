package loopvarindex

import "testing"

func TestSquares(t *testing.T) {
	got := Squares(3)
	for i, v := range got {
		if v != i*i {
			t.Errorf("Squares(3)[%d] = %d, want %d", i, v, i*i)
		}
	}
}
