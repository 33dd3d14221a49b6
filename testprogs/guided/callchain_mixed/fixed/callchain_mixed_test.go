package fixed

import "testing"

func TestCallchainMixed(t *testing.T) {
	Run(t)
}
