// Package ctxloop models a batch import: every record is stored under a
// context with its own timeout, derived from the batch's context, and a
// reporter goroutine waits for the batch to end. The error path returns
// without cancelling the batch, so the reporter waits for ever. The batch
// has 30,000 records: each execution makes and cancels 30,000 contexts with
// a timeout, which cost gosct before issue 13 a quadratic time per
// execution.
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
			return n, err
		}
		n++
	}
	b.cancel()
	return n, nil
}
