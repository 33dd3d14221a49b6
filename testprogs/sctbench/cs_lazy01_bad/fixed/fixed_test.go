package fixed

import "testing"

func TestLazy01(t *testing.T) {
	Run(t)
}
