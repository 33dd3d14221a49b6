package lockcycle

import (
	"sync"
	"testing"
)

func TestCycle(t *testing.T) {
	h := &hub{}
	var wg sync.WaitGroup
	for _, f := range []func(){h.ab, h.bc, h.ca} {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
}
