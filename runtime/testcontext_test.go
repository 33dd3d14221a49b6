package runtime

import (
	"context"
	"testing"
)

// A goroutine that stops when t.Context() is canceled, and a cleanup that
// waits for it: the context is canceled before the cleanups run, inside
// the execution, so there is neither a leak nor a hang.
func TestTestContextCanceledBeforeCleanups(t *testing.T) {
	check(t, "random", 5, func(t *testing.T) {
		ctx := TestContext(t)
		if TestContext(t) != ctx {
			t.Error("TestContext gave two contexts for one t")
		}
		stopped := Chan(make(chan struct{}))
		Go(func() {
			Recv(ctx.Done())
			Close(stopped)
		})
		Cleanup(t, func() {
			if ctx.Err() == nil {
				t.Error("t.Context() not canceled when the cleanups run")
			}
			Recv(stopped)
		})
	})
}

// Outside an execution (and through a testing.TB) it is testing's own.
func TestTestContextOutside(t *testing.T) {
	if TestContext(t) != t.Context() {
		t.Error("outside an execution TestContext is not t.Context()")
	}
	var tb testing.TB = t
	if TestContextTB(tb) != t.Context() {
		t.Error("TestContextTB is not t.Context()")
	}
	var _ context.Context = TestContextTB(tb)
}
