package errgroupcancel

import (
	"context"
	"errors"
	"testing"
)

var errDisk = errors.New("disk full")

func TestWaitReturnsRootCause(t *testing.T) {
	g, ctx := WithContext(context.Background())
	g.Go(func() error {
		<-ctx.Done()
		return ctx.Err()
	})
	g.Go(func() error { return errDisk })
	if err := g.Wait(); err != errDisk {
		t.Errorf("Wait = %v, want %v", err, errDisk)
	}
}
