// Package p uses a vendored dependency (vendor/ holds golang.org/x/sync's
// errgroup, as go mod vendor wrote it).
package p

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Sum adds 1..n in n goroutines.
func Sum(n int) int64 {
	var s atomic.Int64
	g, _ := errgroup.WithContext(context.Background())
	for i := 1; i <= n; i++ {
		g.Go(func() error { s.Add(int64(i)); return nil })
	}
	g.Wait()
	return s.Load()
}
