package runtime

import (
	"fmt"
	"os"
	"runtime/debug"
)

// strategyPanicked, deferred around a call into the strategy, turns its
// panic into an internal error that ends the process. The strategy runs
// with the execution's lock held by a goroutine of the test: a panic left
// to unwind would reach the goroutine's own recovery, which takes the lock
// again to report it, and the test binary would hang instead of failing.
//
//go:norace
func strategyPanicked() {
	if r := recover(); r != nil {
		fmt.Fprintf(os.Stderr, "gosct: internal error: the strategy panicked: %v\n%s", r, debug.Stack())
		os.Exit(2)
	}
}
