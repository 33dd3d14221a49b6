package racy

import (
	"sync"
	"testing"
)

func TestRace(t *testing.T) {
	Race()
}

var y int

// TestWriteUnderRLock writes under a read lock: readers do not exclude
// each other, so the writes race.
func TestWriteUnderRLock(t *testing.T) {
	var mu sync.RWMutex
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.RLock()
			y++ // the racing write
			mu.RUnlock()
		}()
	}
	wg.Wait()
}
