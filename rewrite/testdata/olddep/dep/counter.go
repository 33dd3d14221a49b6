// Package olddep is a dependency whose go.mod says go 1.13: before
// generics, and before per-iteration loop variables.
package olddep

import "sync"

// Counter counts under a mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Add adds one.
func (c *Counter) Add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// N is the count.
func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Fanout runs f(i) for i < n in goroutines and returns the values of the
// loop variable each closure saw when it ran: with go 1.13 semantics the
// variable is one for the whole loop, so after the loop every closure
// sees n.
func Fanout(n int, f func(int)) []int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var seen []int
	ch := make(chan bool)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-ch
			mu.Lock()
			seen = append(seen, i)
			mu.Unlock()
			f(i)
		}()
	}
	close(ch)
	wg.Wait()
	return seen
}
