package cs_twostage_bad

import "testing"

func TestTwostage(t *testing.T) {
	Run(t)
}
