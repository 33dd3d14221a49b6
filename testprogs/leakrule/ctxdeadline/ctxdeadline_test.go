package ctxdeadline

import (
	"context"
	"testing"
	"time"
)

func TestCtxdeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	go func() {
		<-ctx.Done()
		cancel()
	}()
}
