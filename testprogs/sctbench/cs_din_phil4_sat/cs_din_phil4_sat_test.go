package cs_din_phil4_sat

import "testing"

func TestDinPhil4(t *testing.T) {
	Run(t)
}
