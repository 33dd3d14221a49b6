// Package timerflush is the fixed version: the timer's flush and Close
// are serialized by the batcher's mutex, and a flush after Close does
// nothing, whether or not Stop caught the timer before it fired.
package timerflush

import (
	"sync"
	"time"
)

// Batcher collects entries and writes them to its output in batches. The
// output must have room for the batches written while nobody reads it.
type Batcher struct {
	mu      sync.Mutex
	pending []string
	out     chan []string
	every   time.Duration
	timer   *time.Timer
	closed  bool
}

// New returns a batcher writing to out every interval.
func New(out chan []string, every time.Duration) *Batcher {
	b := &Batcher{out: out, every: every}
	b.mu.Lock()
	b.timer = time.AfterFunc(every, b.tick)
	b.mu.Unlock()
	return b
}

// Add queues an entry for the next batch.
func (b *Batcher) Add(s string) {
	b.mu.Lock()
	b.pending = append(b.pending, s)
	b.mu.Unlock()
}

func (b *Batcher) tick() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.flushLocked()
	b.timer.Reset(b.every)
}

func (b *Batcher) flushLocked() {
	if len(b.pending) > 0 {
		b.out <- b.pending
		b.pending = nil
	}
}

// Close writes what is pending and closes the output.
func (b *Batcher) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.timer.Stop()
	b.flushLocked()
	close(b.out)
}
