package cs_reorder_5_bad

import "testing"

func TestReorder5(t *testing.T) {
	Run(t)
}
