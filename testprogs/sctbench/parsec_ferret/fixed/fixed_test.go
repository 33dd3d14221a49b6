package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestFerret(t *testing.T) {
	Run(t)
}
