package mapleader

import (
	"sync"
	"testing"
)

func TestElect(t *testing.T) {
	c := New(1, 2, 3)
	var wg sync.WaitGroup
	for _, id := range []int{1, 2, 3} {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			c.Elect(id)
		}(id)
	}
	wg.Wait()
}
