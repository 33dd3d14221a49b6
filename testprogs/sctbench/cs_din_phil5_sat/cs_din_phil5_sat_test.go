package cs_din_phil5_sat

import "testing"

func TestDinPhil5(t *testing.T) {
	Run(t)
}
