package introspect

import (
	"sync"
	"sync/atomic"
)

// Drainer has the shape of a cache's scheduled maintenance (otter's
// scheduleDrainBuffers): a lock tried, a token, and a deferred closure
// that reads the receiver and the locals. Go keeps those on the stack; a
// test checks that scheduling allocates nothing.
type Drainer struct {
	mu      sync.Mutex
	status  atomic.Uint32
	token   atomic.Uint32
	drained atomic.Int64
	run     func(func())
	drain   func()
}

// NewDrainer returns a Drainer whose executor runs the drain at once.
func NewDrainer() *Drainer {
	d := &Drainer{run: func(f func()) { f() }}
	d.drain = func() { d.drained.Add(1) }
	return d
}

// Schedule runs a drain unless one is under way.
func (d *Drainer) Schedule() {
	if d.status.Load() != 0 {
		return
	}
	if d.mu.TryLock() {
		token := (d.token.Load() | 1) + 1
		d.token.Store(token)
		returned := false
		defer func() {
			if d.token.CompareAndSwap(token, token+1) {
				if !returned {
					d.status.Store(1)
				}
				d.mu.Unlock()
			}
		}()
		d.run(d.drain)
		returned = true
	}
}
