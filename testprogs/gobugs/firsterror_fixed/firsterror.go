// Package firsterror is the fixed version: the channel has room for every
// worker's report and FetchAll waits for all workers before returning.
package firsterror

import "sync"

// FetchAll runs fetch for every url concurrently and returns the first
// error reported, or nil.
func FetchAll(urls []string, fetch func(string) error) error {
	errc := make(chan error, len(urls))
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func(u string) {
			defer wg.Done()
			errc <- fetch(u)
		}(u)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			return err
		}
	}
	return nil
}
