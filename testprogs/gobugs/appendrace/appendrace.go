// Package appendrace models a fan-out that collects the results of its
// workers by appending to a shared slice without a lock: the appends race,
// and one worker's result can overwrite the other's.
package appendrace

import "sync"

// Source produces one result.
type Source func() string

// Collect runs every source concurrently and returns all results.
func Collect(sources []Source) []string {
	var out []string
	var wg sync.WaitGroup
	for _, src := range sources {
		wg.Add(1)
		go func(src Source) {
			defer wg.Done()
			r := src()
			out = append(out, r)
		}(src)
	}
	wg.Wait()
	return out
}
