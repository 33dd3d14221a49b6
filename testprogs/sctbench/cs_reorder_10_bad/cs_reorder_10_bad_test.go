package cs_reorder_10_bad

import "testing"

func TestReorder10(t *testing.T) {
	Run(t)
}
