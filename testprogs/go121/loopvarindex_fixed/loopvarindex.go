// Package loopvarindex is the fixed version: the index is passed to each
// goroutine as an argument.
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
		go func(i int) {
			defer wg.Done()
			started <- struct{}{} // the loop waits until the shard is running
			out[i] = i * i
		}(i)
		<-started
		setup[i] = Scale(i)
	}
	wg.Wait()
	return out
}
