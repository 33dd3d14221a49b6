package svc

import (
	"fmt"
	"sync"
	"testing"
)

// run submits jobs from several clients while a collector reads the
// results, then closes the server.
func run(t *testing.T, s *Server, clients, each int, during func()) map[int]int {
	got := map[int]int{}
	collected := make(chan struct{})
	go func() {
		for r := range s.Results() {
			got[r.ID] = r.Value
		}
		close(collected)
	}()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				id := c*each + i
				if err := s.Submit(Job{ID: id, Key: fmt.Sprint(id % 3), N: id % 3}); err != nil {
					t.Errorf("submit %d: %v", id, err)
				}
			}
		}(c)
	}
	if during != nil {
		during()
	}
	wg.Wait()
	s.Close()
	<-collected
	return got
}

func TestProcess(t *testing.T) {
	s := New(2)
	got := run(t, s, 2, 2, nil)
	if len(got) != 4 {
		t.Fatalf("%d results, want 4", len(got))
	}
	for id, v := range got {
		if n := id % 3; v != n*n {
			t.Errorf("job %d = %d, want %d", id, v, n*n)
		}
	}
	if done, _, _ := s.stats.Snapshot(); done != 4 {
		t.Errorf("stats: %d jobs done, want 4", done)
	}
}

func TestJanitor(t *testing.T) {
	s := New(1)
	var reports sync.WaitGroup
	got := run(t, s, 1, 2, func() {
		reports.Add(1)
		go func() {
			defer reports.Done()
			s.Report()
		}()
		s.Tick()
	})
	reports.Wait()
	if len(got) != 2 {
		t.Fatalf("%d results, want 2", len(got))
	}
}

func TestCloseTwice(t *testing.T) {
	s := New(1)
	go func() {
		for range s.Results() {
		}
	}()
	if err := s.Submit(Job{ID: 1, Key: "a", N: 2}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Close()
		}()
	}
	wg.Wait()
	if err := s.Submit(Job{ID: 2}); err != ErrClosed {
		t.Errorf("submit after close: %v, want ErrClosed", err)
	}
}
