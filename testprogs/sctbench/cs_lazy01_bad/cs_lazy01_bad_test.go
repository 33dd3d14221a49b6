package cs_lazy01_bad

import "testing"

func TestLazy01(t *testing.T) {
	Run(t)
}
