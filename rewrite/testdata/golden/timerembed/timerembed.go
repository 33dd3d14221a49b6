package timerembed

import "time"

// A clock's timer as clockwork makes it: held as an interface, its
// methods are time's, promoted.
type Timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

type realTimer struct{ *time.Timer }

func AfterFunc(d time.Duration, f func()) Timer { return realTimer{time.AfterFunc(d, f)} }

type realTicker struct {
	*time.Ticker
	name string
}

func NewTicker(d time.Duration) interface{ Stop() } { return realTicker{Ticker: time.NewTicker(d)} }

// A timer embedded as a value: the promoted methods are the pointer's.
type valueTimer struct {
	time.Timer
}

// A generic wrapper.
type tagged[K comparable, V any] struct {
	*time.Timer
	key K
	val V
}

// A type that declares its own Stop keeps it; Reset is still promoted.
type ownStop struct{ *time.Timer }

func (o ownStop) Stop() bool { return o.Timer.Stop() }

// A timer and a ticker embedded: Stop and Reset are ambiguous selectors,
// no method is promoted, none is added.
type both struct {
	*time.Timer
	*time.Ticker
}

// Deeper: inner declares the methods, outer's are promoted from it; the
// timer at depth one of twoTimers wins over inner's.
type inner struct{ *time.Timer }
type outer struct{ inner }
type twoTimers struct {
	*time.Timer
	inner
}
