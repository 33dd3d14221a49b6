package fixed

import "testing"

func TestTwostageMixed(t *testing.T) {
	Run(t)
}
