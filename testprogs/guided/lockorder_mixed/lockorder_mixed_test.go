package lockorder_mixed

import "testing"

func TestLockorderMixed(t *testing.T) {
	Run(t)
}
