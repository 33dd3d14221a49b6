//go:build unix

package runtime

import (
	"runtime"
	"syscall"
	"testing"
)

// TestInterruptSignal: with a saved search, ^C asks the explorations to
// stop (TestStateSavedOnInterrupt checks what they do then) instead of
// killing the process.
func TestInterruptSignal(t *testing.T) {
	defer interrupted.Store(false)
	watchInterrupt()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// The signal is delivered to the watcher asynchronously; the process
	// is still alive, which is the point.
	for !interrupted.Load() {
		runtime.Gosched()
	}
}
