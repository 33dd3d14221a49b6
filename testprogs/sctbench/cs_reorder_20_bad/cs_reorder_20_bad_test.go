package cs_reorder_20_bad

import "testing"

func TestReorder20(t *testing.T) {
	Run(t)
}
