// Package tickerrange models a heartbeat loop written as "for range
// ticker.C" and stopped with ticker.Stop. Stop does not close the channel,
// so the loop never ends: the goroutine stays blocked on the ticker's
// channel after Stop.
package tickerrange

import (
	"sync"
	"time"
)

// Heartbeat counts ticks until stopped.
type Heartbeat struct {
	tk    *time.Ticker
	mu    sync.Mutex
	beats int
}

// Start begins beating every period.
func Start(period time.Duration) *Heartbeat {
	h := &Heartbeat{tk: time.NewTicker(period)}
	go h.run()
	return h
}

func (h *Heartbeat) run() {
	for range h.tk.C {
		h.mu.Lock()
		h.beats++
		h.mu.Unlock()
	}
}

// Stop stops the heartbeat.
func (h *Heartbeat) Stop() { h.tk.Stop() }

// Beats returns the number of beats so far.
func (h *Heartbeat) Beats() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.beats
}
