package ctxtodo

import (
	"context"
	"testing"
	"time"
)

func retry(ctx context.Context) {
	for {
		select {
		case <-time.After(time.Millisecond):
		case <-ctx.Done():
			return
		}
	}
}

func TestCtxtodo(t *testing.T) {
	go retry(context.TODO())
}
