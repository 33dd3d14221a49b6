package locks

import (
	"sync"
	"testing"
)

func TestLocks(t *testing.T) {
	k := &bank{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); k.ab() }()
	go func() { defer wg.Done(); k.ba() }()
	wg.Wait()
	s := &store{data: map[string]int{}}
	s.Put("x", -1)
}
