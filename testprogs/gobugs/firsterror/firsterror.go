// Package firsterror models an errgroup-like fan-out that returns the first
// error: the workers report on an unbuffered channel, so once the caller
// has returned, every worker that has not reported yet blocks forever.
package firsterror

// FetchAll runs fetch for every url concurrently and returns the first
// error reported, or nil.
func FetchAll(urls []string, fetch func(string) error) error {
	errc := make(chan error)
	for _, u := range urls {
		go func(u string) {
			errc <- fetch(u)
		}(u)
	}
	for range urls {
		if err := <-errc; err != nil {
			return err
		}
	}
	return nil
}
