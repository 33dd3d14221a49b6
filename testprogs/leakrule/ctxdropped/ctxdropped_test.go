package ctxdropped

import (
	"context"
	"testing"
	"time"
)

func start() {
	ctx, cancel := context.WithCancel(context.Background())
	go retry(ctx)
	go func() {
		_ = cancel // kept by a goroutine that exits at once
	}()
}

func retry(ctx context.Context) {
	for {
		select {
		case <-time.After(time.Millisecond):
		case <-ctx.Done():
			return
		}
	}
}

func TestCtxdropped(t *testing.T) {
	start()
}
