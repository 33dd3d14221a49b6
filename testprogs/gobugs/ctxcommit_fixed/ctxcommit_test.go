package ctxcommit

import (
	"context"
	"testing"
)

func TestCancelledApplyIsNotCommitted(t *testing.T) {
	var s Store
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Apply(ctx, 42) }()
	cancel()
	err := <-errc
	n := s.Len()
	if err != nil && n != 0 {
		t.Errorf("Apply returned %v but committed the value", err)
	}
	if err == nil && n != 1 {
		t.Errorf("Apply succeeded but the store holds %d values", n)
	}
}
