package misc_ctrace_test

import "testing"

// TestCtrace panics (a use of a freed trace record) when thread1's trc_end
// falls inside one of main's trace calls.
func TestCtrace(t *testing.T) {
	Run()
}
