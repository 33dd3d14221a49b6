package reorder_busy

import "testing"

func TestReorderBusy(t *testing.T) {
	Run(t)
}
