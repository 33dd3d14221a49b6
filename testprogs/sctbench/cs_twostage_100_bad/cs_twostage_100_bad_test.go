package cs_twostage_100_bad

import "testing"

func TestTwostage(t *testing.T) {
	Run(t)
}
