package svc

import (
	"sync"
	"testing"
)

func TestCacheCounts(t *testing.T) {
	c := NewCache()
	c.Put("a", 1)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Get("a")
			c.Get("b")
		}()
	}
	wg.Wait()
	if h, m := c.Counts(); h != 2 || m != 2 {
		t.Errorf("hits %d misses %d, want 2 and 2", h, m)
	}
}

func TestLogLines(t *testing.T) {
	var st Stats
	l := NewLog(st.lineLogged)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			l.Printf("line %d", i)
		}(i)
	}
	wg.Wait()
	l.Close()
	if n := l.Count(); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
	if _, _, lines := st.Snapshot(); lines != 2 {
		t.Errorf("stats: %d lines, want 2", lines)
	}
}
