package fixed

import "testing"

func TestDeadlock01(t *testing.T) {
	Run(t)
}
