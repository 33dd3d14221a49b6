package lockforever

import (
	"sync"
	"testing"
)

func TestLockforever(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	go func() { mu.Lock() }()
}
