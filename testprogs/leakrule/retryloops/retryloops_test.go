package retryloops

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

var attempts atomic.Int64

func attempt() error {
	for i := 0; i < 200; i++ {
		attempts.Add(1)
	}
	return errors.New("unavailable")
}

// retry backs off from a nanosecond to half a microsecond, less than an
// attempt takes, until ctx is done.
func retry(ctx context.Context) {
	d := time.Nanosecond
	for ctx.Err() == nil {
		if attempt() == nil {
			return
		}
		time.Sleep(d)
		d = min(2*d, 500*time.Nanosecond)
	}
}

func TestRetryloops(t *testing.T) {
	ctx := context.Background() // nobody cancels it
	go retry(ctx)
	go retry(ctx)
}
