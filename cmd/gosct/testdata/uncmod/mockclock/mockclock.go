// Package mockclock is a mock clock of the usual shape (benbjohnson/clock,
// andres-erbsen/clock, jonboulle/clockwork): Sleep blocks on a channel
// until another goroutine moves the clock past its deadline with Add. It is
// a module of its own that gosct does not instrument (no --deps): to the
// runtime its channels and its mutex are uncontrolled code.
package mockclock

import (
	"sync"
	"time"
)

// Mock is a clock that only Add moves.
type Mock struct {
	mu       sync.Mutex
	now      time.Duration
	sleepers []sleeper
	changed  chan struct{} // closed and renewed whenever sleepers change
}

type sleeper struct {
	until time.Duration
	wake  chan struct{}
}

// New returns a mock clock at zero.
func New() *Mock { return &Mock{changed: make(chan struct{})} }

// Sleep blocks until the clock has moved d past now.
func (m *Mock) Sleep(d time.Duration) {
	m.mu.Lock()
	s := sleeper{m.now + d, make(chan struct{})}
	m.sleepers = append(m.sleepers, s)
	m.notify()
	m.mu.Unlock()
	<-s.wake
}

// Add moves the clock by d and wakes the sleepers whose time has come.
func (m *Mock) Add(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now += d
	kept := m.sleepers[:0]
	for _, s := range m.sleepers {
		if s.until <= m.now {
			close(s.wake)
		} else {
			kept = append(kept, s)
		}
	}
	m.sleepers = kept
	m.notify()
}

// BlockUntil blocks until n goroutines sleep on the clock.
func (m *Mock) BlockUntil(n int) {
	for {
		m.mu.Lock()
		if len(m.sleepers) >= n {
			m.mu.Unlock()
			return
		}
		ch := m.changed
		m.mu.Unlock()
		<-ch
	}
}

func (m *Mock) notify() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// Ticking starts a goroutine that keeps the process busy (as a library's
// background refresher would): the process is never quiet while it runs.
func Ticking(stop <-chan struct{}) {
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
}
