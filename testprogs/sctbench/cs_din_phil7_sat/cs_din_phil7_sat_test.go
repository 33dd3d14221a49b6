package cs_din_phil7_sat

import "testing"

func TestDinPhil7(t *testing.T) {
	Run(t)
}
