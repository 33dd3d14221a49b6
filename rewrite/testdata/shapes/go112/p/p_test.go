package p

import (
	"sync"
	"testing"
)

func TestAnswer(t *testing.T) {
	var wg sync.WaitGroup
	got := make([]int, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			got[i] = Answer()
		}(i)
	}
	wg.Wait()
	if got[0] != 42 || got[1] != 42 {
		t.Fatalf("got %v", got)
	}
}
