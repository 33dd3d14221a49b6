// Package clockwrap is a clock abstraction as jonboulle/clockwork writes
// it: its timers and tickers embed time's and are held as interfaces, so
// Stop and Reset are time's methods, promoted.
package clockwrap

import "time"

// Timer is a clock's timer.
type Timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// Ticker is a clock's ticker.
type Ticker interface {
	Chan() <-chan time.Time
	Stop()
}

type realTimer struct{ *time.Timer }

type realTicker struct{ *time.Ticker }

func (t realTicker) Chan() <-chan time.Time { return t.C }

// AfterFunc runs f in its own goroutine after d.
func AfterFunc(d time.Duration, f func()) Timer { return realTimer{time.AfterFunc(d, f)} }

// NewTicker ticks every d.
func NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }
