// Package tickerrange is the fixed version: the loop also waits on a stop
// channel, and Stop waits for the loop to return.
package tickerrange

import (
	"sync"
	"time"
)

// Heartbeat counts ticks until stopped.
type Heartbeat struct {
	tk    *time.Ticker
	stop  chan struct{}
	done  chan struct{}
	mu    sync.Mutex
	beats int
}

// Start begins beating every period.
func Start(period time.Duration) *Heartbeat {
	h := &Heartbeat{tk: time.NewTicker(period), stop: make(chan struct{}), done: make(chan struct{})}
	go h.run()
	return h
}

func (h *Heartbeat) run() {
	defer close(h.done)
	for {
		select {
		case <-h.tk.C:
			h.mu.Lock()
			h.beats++
			h.mu.Unlock()
		case <-h.stop:
			return
		}
	}
}

// Stop stops the heartbeat and waits for its goroutine.
func (h *Heartbeat) Stop() {
	h.tk.Stop()
	close(h.stop)
	<-h.done
}

// Beats returns the number of beats so far.
func (h *Heartbeat) Beats() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.beats
}
