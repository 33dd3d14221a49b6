package twostage_mixed

import "testing"

func TestTwostageMixed(t *testing.T) {
	Run(t)
}
