package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestTwostage(t *testing.T) {
	Run(t)
}
