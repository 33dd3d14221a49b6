// Package timerflush models a batching writer flushed by a timer: every
// interval an AfterFunc flushes the pending entries to the output channel
// and re-arms itself. Close stops the timer, flushes what is left and
// closes the output. When the timer has already fired, Stop returns false
// and the timer's flush may still be running: Close closes the output under
// it, and its send panics.
package timerflush

import (
	"sync"
	"time"
)

// Batcher collects entries and writes them to its output in batches.
type Batcher struct {
	mu      sync.Mutex
	pending []string
	out     chan []string
	every   time.Duration
	timer   *time.Timer
}

// New returns a batcher writing to out every interval.
func New(out chan []string, every time.Duration) *Batcher {
	b := &Batcher{out: out, every: every}
	b.timer = time.AfterFunc(every, b.tick)
	return b
}

// Add queues an entry for the next batch.
func (b *Batcher) Add(s string) {
	b.mu.Lock()
	b.pending = append(b.pending, s)
	b.mu.Unlock()
}

func (b *Batcher) tick() {
	b.flush()
	b.timer.Reset(b.every)
}

func (b *Batcher) flush() {
	b.mu.Lock()
	batch := b.pending
	b.pending = nil
	b.mu.Unlock()
	if len(batch) > 0 {
		b.out <- batch
	}
}

// Close writes what is pending and closes the output.
func (b *Batcher) Close() {
	b.timer.Stop() // false when tick is already running: its flush may still send
	b.flush()
	close(b.out)
}
