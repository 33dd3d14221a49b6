package twostage_busy

import "testing"

func TestTwostageBusy(t *testing.T) {
	Run(t)
}
