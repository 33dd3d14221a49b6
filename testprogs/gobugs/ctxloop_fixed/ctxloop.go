// Package ctxloop is the fixed version: the batch is cancelled on every
// path.
package ctxloop

import (
	"context"
	"time"
)

type batch struct {
	ctx    context.Context
	cancel context.CancelFunc
	ended  chan int
}

// Import stores every record, each with its own timeout, and returns how
// many it stored.
func Import(parent context.Context, recs []string, store func(context.Context, string) error, timeout time.Duration) (int, error) {
	ctx, cancel := context.WithCancel(parent)
	b := &batch{ctx: ctx, cancel: cancel, ended: make(chan int, 1)}
	go func() {
		<-b.ctx.Done()
		b.ended <- 1
	}()
	n := 0
	for _, r := range recs {
		rctx, rcancel := context.WithTimeout(b.ctx, timeout)
		err := store(rctx, r)
		rcancel()
		if err != nil {
			b.cancel()
			return n, err
		}
		n++
	}
	b.cancel()
	return n, nil
}
