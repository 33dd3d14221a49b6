// Package pipelineleak is the fixed version: every stage watches ctx on
// its sends, and the consumer drains its input after cancelling, so every
// stage has exited when FirstAbove returns.
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

// Square emits the square of every value of in until ctx is done; it
// drains in before closing its output, so upstream stages have finished.
func Square(ctx context.Context, in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		defer func() {
			for range in {
			}
		}()
		for n := range in {
			select {
			case out <- n * n:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// FirstAbove returns the first value of in greater than limit (or -1) and
// cancels the pipeline.
func FirstAbove(cancel context.CancelFunc, in <-chan int, limit int) int {
	defer func() {
		cancel()
		for range in {
		}
	}()
	for v := range in {
		if v > limit {
			return v
		}
	}
	return -1
}
