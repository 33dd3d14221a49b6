package radbench_bug1

import "testing"

// TestJSContexts panics (a use of freed runtime state) when the GC of the
// first context to go passes its "runtime is up" check and then waits while
// the last context tears the runtime down.
func TestJSContexts(t *testing.T) {
	Run()
}
