package runtime

import (
	"context"
	"sync"
	"testing"
)

// t.Context() (Go 1.24) is canceled just before the Cleanup-registered
// functions run. Inside an execution those run in the execution (see
// cleanup.go), but testing would cancel the context only when the
// schedule's subtest ends, after the leak check: a goroutine that waits on
// t.Context().Done() would be reported as leaked, and a cleanup that waits
// for it would never return. The rewriter turns t.Context() into
// gosct.TestContext(t), which returns a context derived from testing's and
// canceled by runCleanups before the first cleanup.

type testCtx struct {
	ctx    context.Context
	cancel context.CancelFunc
}

var (
	testCtxMu sync.Mutex
	testCtxs  = make(map[*testing.T]*testCtx)
)

// contexter is what *testing.T has from Go 1.24 on; the runtime compiles
// with older toolchains, where no instrumented code calls it.
type contexter interface{ Context() context.Context }

// TestContext replaces t.Context() in instrumented code. The same t gets
// the same context, as from testing.
//
//go:norace
func TestContext(t *testing.T) context.Context {
	parent := context.Background()
	if c, ok := any(t).(contexter); ok {
		parent = c.Context()
	}
	cleanupMu.Lock()
	_, inExecution := cleanups[t]
	cleanupMu.Unlock()
	if !inExecution {
		return parent // a subtest, or no execution: testing cancels it in time
	}
	testCtxMu.Lock()
	defer testCtxMu.Unlock()
	if c := testCtxs[t]; c != nil {
		return c.ctx
	}
	ctx, cancel := context.WithCancel(parent)
	testCtxs[t] = &testCtx{ctx, cancel}
	return ctx
}

// TestContextTB replaces tb.Context() through an interface (testing.TB):
// TestContext for a *testing.T, the plain call otherwise.
//
//go:norace
func TestContextTB(tb interface{ Context() context.Context }) context.Context {
	if t, ok := tb.(*testing.T); ok && t != nil {
		return TestContext(t)
	}
	return tb.Context()
}

// cancelTestContext cancels the context TestContext gave for t, if any:
// runCleanups calls it before the first cleanup.
//
//go:norace
func cancelTestContext(t *testing.T) {
	testCtxMu.Lock()
	c := testCtxs[t]
	delete(testCtxs, t)
	testCtxMu.Unlock()
	if c != nil {
		c.cancel()
	}
}
