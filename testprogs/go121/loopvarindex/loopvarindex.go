// Package loopvarindex models a parallel loop over indices whose
// goroutines capture the loop counter. Under Go 1.21 semantics (this
// module declares go 1.21) the counter is shared, so a goroutine that runs
// after the loop has advanced writes the wrong slot, and one that runs
// after the loop ended indexes out of range and panics.
package loopvarindex

import "sync"

// Scale is the per-shard setup done by the loop after starting each shard.
func Scale(i int) int {
	s := i
	for k := 0; k < 100; k++ {
		s = (s*31 + k) % 1000003
	}
	return s
}

// Squares computes i*i for every i < n, one goroutine per index.
func Squares(n int) []int {
	out := make([]int, n)
	setup := make([]int, n)
	var wg sync.WaitGroup
	started := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started <- struct{}{} // the loop waits until the shard is running
			out[i] = i * i
		}()
		<-started
		setup[i] = Scale(i)
	}
	wg.Wait()
	return out
}
