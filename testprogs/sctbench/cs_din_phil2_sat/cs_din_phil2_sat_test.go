package cs_din_phil2_sat

import "testing"

func TestDinPhil2(t *testing.T) {
	Run(t)
}
