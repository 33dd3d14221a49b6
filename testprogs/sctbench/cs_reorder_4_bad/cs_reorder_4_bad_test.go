package cs_reorder_4_bad

import "testing"

func TestReorder4(t *testing.T) {
	Run(t)
}
