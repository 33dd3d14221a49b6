package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestSync01(t *testing.T) {
	Run()
}
