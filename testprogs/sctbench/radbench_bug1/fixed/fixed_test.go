package fixed

import "testing"

// The fixed version must pass in every schedule.
func TestJSContexts(t *testing.T) {
	Run()
}
