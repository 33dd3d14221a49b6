package cs_din_phil6_sat

import "testing"

func TestDinPhil6(t *testing.T) {
	Run(t)
}
