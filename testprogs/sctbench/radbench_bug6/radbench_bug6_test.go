package radbench_bug6

import "testing"

// TestRWLock deadlocks when the writer starts waiting between the reader's
// two read locks.
func TestRWLock(t *testing.T) {
	Run()
}
