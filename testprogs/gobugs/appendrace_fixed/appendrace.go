// Package appendrace is the fixed version: each worker writes its own slot
// of a preallocated slice.
package appendrace

import "sync"

// Source produces one result.
type Source func() string

// Collect runs every source concurrently and returns all results.
func Collect(sources []Source) []string {
	out := make([]string, len(sources))
	var wg sync.WaitGroup
	for i, src := range sources {
		wg.Add(1)
		go func(i int, src Source) {
			defer wg.Done()
			out[i] = src()
		}(i, src)
	}
	wg.Wait()
	return out
}
