package singleflight

import (
	"sync/atomic"
	"testing"
)

func TestConcurrentCallersGetTheResult(t *testing.T) {
	var g Group
	var loads int32
	load := func() string {
		atomic.AddInt32(&loads, 1)
		return "config-v1"
	}
	other := make(chan string, 1)
	go func() { other <- g.Do("config", load) }()
	mine := g.Do("config", load)
	theirs := <-other
	if mine != "config-v1" || theirs != "config-v1" {
		t.Errorf("Do returned %q and %q, want config-v1 twice", mine, theirs)
	}
	if n := atomic.LoadInt32(&loads); n < 1 || n > 2 {
		t.Errorf("loaded %d times", n)
	}
}
