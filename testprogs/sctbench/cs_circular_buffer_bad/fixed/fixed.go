// Package fixed is CS.circular_buffer_bad (see the parent directory) with
// the bug fixed: the sender numbers the values it actually sends and the
// receiver checks them against the number of values it has actually
// received, instead of both using their loop counters.
package fixed

import (
	"sync"
	"testing"
)

const (
	bufferMax = 10
	n         = 7
)

type ring struct {
	m             sync.Mutex
	buffer        [bufferMax]byte
	first, next   int
	bufferSize    int
	send, receive bool
}

func (r *ring) insert(b byte) int {
	if r.next < r.bufferSize {
		r.buffer[r.next] = b
		r.next = (r.next + 1) % r.bufferSize
		return int(b)
	}
	return -1
}

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
	sent := 0
	for i := 0; i < n; i++ {
		r.m.Lock()
		if r.send {
			r.insert(byte(sent))
			sent++
			r.send = false
			r.receive = true
		}
		r.m.Unlock()
	}
}

func (r *ring) receiver(t testing.TB) {
	received := 0
	for i := 0; i < n; i++ {
		r.m.Lock()
		if r.receive {
			if got := r.remove(); got != received {
				t.Errorf("value number %d is %d", received, got)
			}
			received++
			r.receive = false
			r.send = true
		}
		r.m.Unlock()
	}
}
