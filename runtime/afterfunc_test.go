package runtime

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// f starts as a goroutine of the execution at the cancel, however the
// context is cancelled: no schedule is a false deadlock, none depends on
// code outside control, and dfs exhausts each program.
func TestContextAfterFuncStartsAtCancel(t *testing.T) {
	cases := map[string]func() (context.Context, func()){
		"cancel": func() (context.Context, func()) {
			return WithCancel(context.Background())
		},
		"cause": func() (context.Context, func()) {
			ctx, cancel := WithCancelCause(context.Background())
			return ctx, func() { cancel(nil) }
		},
		"parent": func() (context.Context, func()) {
			parent, cancel := WithCancel(context.Background())
			ctx, _ := WithCancel(parent)
			return ctx, cancel
		},
		"timeout cancelled": func() (context.Context, func()) {
			return WithTimeout(context.Background(), time.Hour)
		},
		"deadline passed": func() (context.Context, func()) {
			ctx, _ := WithTimeout(context.Background(), time.Millisecond)
			return ctx, func() { Sleep(time.Second) }
		},
		"done before": func() (context.Context, func()) {
			ctx, cancel := WithCancel(context.Background())
			cancel()
			return ctx, func() {}
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			x := check(t, "dfs", 1000, func(t *testing.T) {
				ctx, cancel := mk()
				done := Chan(make(chan bool))
				ContextAfterFunc(ctx, func() { Send(done, true) })
				cancel()
				Recv(done)
			})
			wantProof(t, x)
		})
	}
}

// The stop function says what Go's does: true, and f never runs, when it
// comes before the cancel; false, and f runs, after.
func TestContextAfterFuncStop(t *testing.T) {
	seen := map[string]bool{}
	check(t, "dfs", 1000, func(t *testing.T) {
		ctx, cancel := WithCancel(context.Background())
		ran := Chan(make(chan bool, 1))
		stop := ContextAfterFunc(ctx, func() { Send(ran, true) })
		stopped := Chan(make(chan bool, 1))
		Go(func() { Send(stopped, stop()) })
		cancel()
		s := Recv(stopped)
		r := false
		if !s {
			r = Recv(ran)
		}
		if Len(ran) != 0 {
			t.Errorf("f ran after a stop that returned true")
		}
		seen[fmt.Sprint("stopped ", s, ", ran ", r)] = true
	})
	if !seen["stopped true, ran false"] || !seen["stopped false, ran true"] || len(seen) != 2 {
		t.Errorf("outcomes %v", seen)
	}
}
