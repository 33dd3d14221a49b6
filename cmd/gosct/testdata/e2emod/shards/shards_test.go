package shards

import (
	"sync"
	"testing"
)

// TestTally: two goroutines add twice each; every schedule passes.
func TestTally(t *testing.T) {
	var tl Tally
	done := make(chan bool)
	go func() { tl.Add(); tl.Add(); done <- true }()
	tl.Add()
	tl.Add()
	<-done
	if tl.N() != 4 {
		t.Fatalf("tally %d, want 4", tl.N())
	}
}

// TestTwoBugs has two bugs, each hit by some schedules: an update lost by
// the unlocked counter (a failure) and two lock orders (a deadlock).
func TestTwoBugs(t *testing.T) {
	var r Racy
	var a, b sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); r.Add(); Pair(&a, &b) }()
	go func() { defer wg.Done(); r.Add(); Pair(&b, &a) }()
	wg.Wait()
	if r.n != 2 {
		t.Fatalf("lost an update: %d", r.n)
	}
}

// TestWaitTally is a bigger search, for measuring shards
// (tools/shardmeasure): two goroutines add once each under a
// WaitGroup.
func TestWaitTally(t *testing.T) {
	var tl Tally
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tl.Add()
		}()
	}
	wg.Wait()
	if tl.N() != 2 {
		t.Fatalf("tally %d, want 2", tl.N())
	}
}
