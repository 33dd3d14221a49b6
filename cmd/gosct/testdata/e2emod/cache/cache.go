// Package cache computes a value on first use and keeps it in a
// package-level cache. The computation loses an update on some schedules:
// a bug only the first use, with the cache cold, can show.
package cache

import "sync"

var (
	mu    sync.Mutex
	cache = map[string]int{}
)

// Get returns the value of k: two workers count it the first time.
func Get(k string) int {
	mu.Lock()
	v, ok := cache[k]
	mu.Unlock()
	if ok {
		return v
	}
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			n++ // unsynchronized: two workers may both write 1
		}()
	}
	wg.Wait()
	mu.Lock()
	cache[k] = n
	mu.Unlock()
	return n
}
