package runtime

import (
	"sync"
	"testing"
)

// Functions a test registers with t.Cleanup run, under go test, after the
// test function returns. Tests routinely stop their background goroutines
// there (close a stop channel, cancel a context, wait for a worker), so
// they must run inside the execution, before the goroutines left are
// judged leaked: otherwise every such goroutine is a false leak, and a
// cleanup that waits for a goroutine already torn down hangs. The rewriter
// turns t.Cleanup(f) into gosct.Cleanup(t, f); Cleanup keeps the functions
// registered on the schedule's own t for runTest, which runs them last to
// first when the body ends (also by t.FailNow or a panic), as testing would.

var (
	cleanupMu sync.Mutex
	// cleanups maps the t of each running execution to what was
	// registered on it.
	cleanups = make(map[*testing.T]*[]func())
)

// Cleanup replaces t.Cleanup in instrumented code.
//
//go:norace
func Cleanup(t *testing.T, f func()) {
	cleanupMu.Lock()
	fs := cleanups[t]
	if fs != nil {
		*fs = append(*fs, f)
	}
	cleanupMu.Unlock()
	if fs == nil {
		t.Cleanup(f)
	}
}

// startCleanups makes Cleanup collect the functions registered on t.
//
//go:norace
func startCleanups(t *testing.T) {
	cleanupMu.Lock()
	cleanups[t] = new([]func())
	cleanupMu.Unlock()
}

// runCleanups runs what was registered on t, last first, and stops
// collecting. Each runs even if an earlier one calls t.FailNow or panics,
// as with testing.
//
//go:norace
func runCleanups(t *testing.T) {
	cancelTestContext(t) // t.Context() is canceled before the cleanups: testcontext.go
	cleanupMu.Lock()
	fs := cleanups[t]
	var f func()
	if fs != nil && len(*fs) > 0 {
		f = (*fs)[len(*fs)-1]
		*fs = (*fs)[:len(*fs)-1]
	} else {
		delete(cleanups, t)
	}
	cleanupMu.Unlock()
	if f == nil {
		return
	}
	defer runCleanups(t)
	callFunc(f)
}
