package cs_token_ring_bad

import "testing"

func TestTokenRing(t *testing.T) {
	Run(t)
}
