package racy

import (
	"sync"
	"testing"
	"time"
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

var z int

// TestTickCarriesNoOrder writes z before blocking and after a timer fires:
// a timer's tick orders nothing, whichever goroutine moved the clock.
func TestTickCarriesNoOrder(t *testing.T) {
	done := make(chan bool)
	go func() {
		<-time.After(time.Millisecond)
		z = 2 // the racing write
		done <- true
	}()
	z = 1
	<-done
}
