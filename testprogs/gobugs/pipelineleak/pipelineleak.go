// Package pipelineleak models a pipeline in the style of the Go blog's
// "pipelines and cancellation": the generator watches ctx, but the
// squaring stage sends its output without watching ctx, so when the
// consumer stops early the stage stays blocked on its send.
package pipelineleak

import "context"

// Gen emits nums until ctx is done.
func Gen(ctx context.Context, nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			select {
			case out <- n:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// Square emits the square of every value of in.
func Square(ctx context.Context, in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			out <- n * n
		}
	}()
	return out
}

// FirstAbove returns the first value of in greater than limit (or -1) and
// cancels the pipeline.
func FirstAbove(cancel context.CancelFunc, in <-chan int, limit int) int {
	defer cancel()
	for v := range in {
		if v > limit {
			return v
		}
	}
	return -1
}
