// Package cs_circular_buffer_bad is a Go port of SCTBench's
// CS.circular_buffer_bad: a sender and a receiver take turns through a
// circular buffer guarded by one mutex and two flags, and the receiver
// checks each value against its own loop counter. Both counters advance in
// iterations that find it is not their turn, so the values and counters
// drift apart.
package cs_circular_buffer_bad

import (
	"sync"
	"testing"
)

const (
	bufferMax = 10
	n         = 7
)

// ring is the shared circular buffer and the turn flags.
type ring struct {
	m             sync.Mutex
	buffer        [bufferMax]byte
	first, next   int
	bufferSize    int
	send, receive bool
}

// insert stores b if there is room; the caller holds m.
func (r *ring) insert(b byte) int {
	if r.next < r.bufferSize {
		r.buffer[r.next] = b
		r.next = (r.next + 1) % r.bufferSize
		return int(b)
	}
	return -1
}

// remove takes the oldest element; the caller holds m.
func (r *ring) remove() int {
	if r.next > 0 && r.first < r.bufferSize {
		r.first++
		return int(r.buffer[r.first-1])
	}
	return -1
}

// Run starts the sender and the receiver and joins them.
func Run(t testing.TB) {
	r := &ring{bufferSize: bufferMax, send: true}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); r.sender() }()
	go func() { defer wg.Done(); r.receiver(t) }()
	wg.Wait()
}

func (r *ring) sender() {
	for i := 0; i < n; i++ {
		r.m.Lock()
		if r.send {
			r.insert(byte(i))
			r.send = false
			r.receive = true
		}
		r.m.Unlock()
	}
}

func (r *ring) receiver(t testing.TB) {
	for i := 0; i < n; i++ {
		r.m.Lock()
		if r.receive {
			if got := r.remove(); got != i {
				t.Errorf("receiver iteration %d removed %d", i, got)
			}
			r.receive = false
			r.send = true
		}
		r.m.Unlock()
	}
}
