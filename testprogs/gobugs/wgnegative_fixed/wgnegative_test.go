package wgnegative

import (
	"sync"
	"testing"
)

func TestEventAndResyncOfSameKey(t *testing.T) {
	s := NewSyncer()
	var wg sync.WaitGroup
	wg.Add(2)
	go s.Sync("pod/a", &wg) // periodic resync
	s.Sync("pod/a", &wg)    // watch event
	wg.Wait()
	if n := s.Synced(); n < 1 || n > 2 {
		t.Errorf("synced %d times, want 1 or 2", n)
	}
}
