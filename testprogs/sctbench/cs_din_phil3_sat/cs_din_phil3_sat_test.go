package cs_din_phil3_sat

import "testing"

func TestDinPhil3(t *testing.T) {
	Run(t)
}
