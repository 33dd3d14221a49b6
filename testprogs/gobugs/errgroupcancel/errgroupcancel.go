// Package errgroupcancel models a hand-rolled errgroup.WithContext whose
// failing task cancels the group's context before recording its error.
// Another task that returns ctx.Err() as soon as the context is done can
// record context.Canceled first, and Wait then hides the root cause.
package errgroupcancel

import (
	"context"
	"sync"
)

// Group runs tasks and keeps the first error.
type Group struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	err    error
}

// WithContext returns a group and a context cancelled when a task fails.
func WithContext(ctx context.Context) (*Group, context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	return &Group{cancel: cancel}, ctx
}

// Go runs f in a new goroutine.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.cancel() // stop the other tasks as early as possible
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	}()
}

// Wait waits for every task and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	g.cancel()
	return g.err
}
