package radbench_bug1

import "testing"

// TestJSContexts panics (a use of the freed script-filename table) when the
// GC of the first context to go passes its "runtime is up" check, waits
// while the last context tears the runtime down, and reads the table's
// pointer between the table's destruction and the clearing of the pointer.
func TestJSContexts(t *testing.T) {
	Run()
}
