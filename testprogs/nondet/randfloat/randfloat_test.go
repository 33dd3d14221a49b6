package randfloat

import (
	"sync"
	"testing"
)

func TestHandle(t *testing.T) {
	tr := NewTracer()
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			tr.Handle(name)
		}(name)
	}
	wg.Wait()
}
