package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestRWLock(t *testing.T) {
	Run()
}
