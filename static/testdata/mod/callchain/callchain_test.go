package callchain

import (
	"sync"
	"testing"
)

func TestCallChain(t *testing.T) {
	s := &state{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.publish(1) }()
	consume(t, s)
	wg.Wait()
}
