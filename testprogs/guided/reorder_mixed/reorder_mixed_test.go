package reorder_mixed

import "testing"

func TestReorderMixed(t *testing.T) {
	Run(t)
}
