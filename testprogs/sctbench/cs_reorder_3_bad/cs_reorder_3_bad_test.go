package cs_reorder_3_bad

import "testing"

func TestReorder3(t *testing.T) {
	Run(t)
}
