package waitforever

import (
	"sync"
	"testing"
)

func TestWaitforever(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { wg.Wait() }()
}
