package timectx

import (
	"context"
	"time"
)

func Wait(ctx context.Context) time.Duration {
	start := time.Now()
	time.Sleep(time.Millisecond)
	t := time.NewTimer(time.Second)
	defer t.Stop()
	t.Reset(2 * time.Second)
	tk := time.NewTicker(time.Second)
	tk.Stop()
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	select {
	case <-time.After(time.Millisecond):
	case <-ctx.Done():
	case <-t.C:
	}
	time.AfterFunc(time.Second, func() {})
	now := time.Now
	_ = now()
	return time.Since(start)
}

func OnlySleep() {
	time.Sleep(1)
}

// Cleanup runs f in a goroutine once ctx is done.
func Cleanup(ctx context.Context, f func()) (stop func() bool) {
	return context.AfterFunc(ctx, f)
}
