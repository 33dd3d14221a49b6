package cs_sync01_bad

import "testing"

// TestSync01 deadlocks in every schedule; under plain go test it hangs until
// -timeout.
func TestSync01(t *testing.T) {
	Run()
}
