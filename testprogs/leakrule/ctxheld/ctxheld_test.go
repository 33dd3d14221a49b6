package ctxheld

import (
	"context"
	"testing"
	"time"
)

type loop struct {
	cancel context.CancelFunc
	tries  int
}

// run gives up, cancelling its own context, after a billion tries: it
// holds its cancel function, so it could stop itself.
func (l *loop) run(ctx context.Context) {
	for {
		select {
		case <-time.After(time.Millisecond):
			if l.tries++; l.tries > 1e9 {
				l.cancel()
			}
		case <-ctx.Done():
			return
		}
	}
}

func TestCtxheld(t *testing.T) {
	l := &loop{}
	var ctx context.Context
	ctx, l.cancel = context.WithCancel(context.Background())
	go l.run(ctx)
}
