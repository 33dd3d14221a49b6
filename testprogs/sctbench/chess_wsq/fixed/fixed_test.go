package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestWorkStealQueue(t *testing.T) {
	Run(t)
}
