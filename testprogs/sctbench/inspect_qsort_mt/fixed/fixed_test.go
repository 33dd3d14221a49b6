package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestQsortMT(t *testing.T) {
	Run(t)
}
