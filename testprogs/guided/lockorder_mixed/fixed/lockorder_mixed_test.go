package fixed

import "testing"

func TestLockorderMixed(t *testing.T) {
	Run(t)
}
