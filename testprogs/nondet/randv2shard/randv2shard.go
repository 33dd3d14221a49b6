// Package randv2shard counts hits in three shards, each request picking a
// shard at random (math/rand/v2 IntN(3)) to spread the contention. The
// increment reads and writes the shard's count without the shard's lock:
// two requests on the same shard may lose an update.
package randv2shard

import (
	"math/rand/v2"
	"sync"
)

type shard struct {
	mu sync.Mutex
	n  int
}

// Counter is a sharded hit counter.
type Counter struct{ shards [3]shard }

// Hit counts one hit.
func (c *Counter) Hit() {
	s := &c.shards[rand.IntN(3)]
	n := s.n // BUG: read and write without s.mu
	s.n = n + 1
}

// Total sums the shards.
func (c *Counter) Total() int {
	t := 0
	for i := range c.shards {
		c.shards[i].mu.Lock()
		t += c.shards[i].n
		c.shards[i].mu.Unlock()
	}
	return t
}
