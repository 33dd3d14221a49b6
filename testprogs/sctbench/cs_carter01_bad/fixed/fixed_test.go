package fixed

import "testing"

func TestCarter01(t *testing.T) {
	Run(t)
}
