//go:build go1.21

// Before go1.22 a loop's variables are one per loop.
package patterns

import (
	"sync"
	"testing"
)

func TestOldRangeValueCaptured(t *testing.T) {
	var wg sync.WaitGroup
	for _, v := range []int{1, 2, 3} {
		wg.Add(1)
		go func() {
			_ = v
			wg.Done()
		}()
	}
	wg.Wait()
}

func TestOldRangeKeyAddressTaken(t *testing.T) {
	var wg sync.WaitGroup
	for i := range []int{1, 2, 3} {
		p := &i
		wg.Add(1)
		go func() {
			_ = *p
			wg.Done()
		}()
	}
	wg.Wait()
}

func TestOldRangeMapKey(t *testing.T) {
	var wg sync.WaitGroup
	for k := range map[string]int{"a": 1, "b": 2} {
		wg.Add(1)
		go func() {
			_ = k
			wg.Done()
		}()
	}
	wg.Wait()
}

func TestOldRangeChannel(t *testing.T) {
	ch := make(chan int, 2)
	ch <- 1
	ch <- 2
	close(ch)
	var wg sync.WaitGroup
	for v := range ch {
		wg.Add(1)
		go func() {
			_ = v
			wg.Done()
		}()
	}
	wg.Wait()
}

func TestOldThreeClauseLoop(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			_ = i
			wg.Done()
		}()
	}
	wg.Wait()
}
