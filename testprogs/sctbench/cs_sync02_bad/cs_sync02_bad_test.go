package cs_sync02_bad

import "testing"

// TestSync02 deadlocks in every schedule; under plain go test it hangs until
// -timeout.
func TestSync02(t *testing.T) {
	Run()
}
