package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestContextThread(t *testing.T) {
	Run()
}
