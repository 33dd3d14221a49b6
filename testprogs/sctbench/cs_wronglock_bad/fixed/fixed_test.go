package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestWronglock(t *testing.T) {
	Run(t)
}
