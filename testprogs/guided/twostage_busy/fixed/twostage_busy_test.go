package fixed

import "testing"

func TestTwostageBusy(t *testing.T) {
	Run(t)
}
