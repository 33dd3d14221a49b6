package fixed

import "testing"

func TestReorderMixed(t *testing.T) {
	Run(t)
}
