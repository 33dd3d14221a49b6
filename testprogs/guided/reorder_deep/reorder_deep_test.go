package reorder_deep

import "testing"

func TestReorderDeep(t *testing.T) {
	Run(t)
}
