// Package fatal has a test that ends the test binary between two others,
// as a test helper's log.Fatal does on an error it did not expect.
package fatal

import "sync"

// Sum adds 1 to 0 from n goroutines.
func Sum(n int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			total++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}
