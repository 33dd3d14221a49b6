package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestWorkStealQueueWithState(t *testing.T) {
	Run(t)
}
