package cs_arithmetic_prog_bad

import "testing"

func TestArithmeticProg(t *testing.T) {
	Run(t)
}
