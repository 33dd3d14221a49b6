package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestTokenRing(t *testing.T) {
	Run(t)
}
