package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestCtrace(t *testing.T) {
	Run()
}
