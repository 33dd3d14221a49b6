package fixed

import "testing"

func TestArithmeticProg(t *testing.T) {
	Run(t)
}
