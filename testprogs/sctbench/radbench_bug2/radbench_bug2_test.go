package radbench_bug2

import "testing"

// TestContextThread panics (a nil dereference in the GC) when the worker
// clears its context's thread between the GC's check and its use.
func TestContextThread(t *testing.T) {
	Run()
}
