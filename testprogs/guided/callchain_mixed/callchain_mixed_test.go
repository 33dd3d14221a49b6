package callchain_mixed

import "testing"

func TestCallchainMixed(t *testing.T) {
	Run(t)
}
