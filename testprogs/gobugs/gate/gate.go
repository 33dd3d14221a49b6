// Package gate models an admission gate: a call queues (at most cap(queued)
// wait; beyond that Try refuses it), then takes the one running slot and
// runs. Calls are started in goroutines, and a test that releases them in
// the order it started them assumes they run in that order: the running
// slot goes to whichever queued goroutine sends first.
package gate

import (
	"runtime"
	"sync"
)

// Gate admits calls, one running at a time.
type Gate struct{ queued, running chan struct{} }

// New returns a gate with room for queue waiting calls.
func New(queue int) *Gate {
	return &Gate{queued: make(chan struct{}, queue), running: make(chan struct{}, 1)}
}

// Try runs f once the running slot is free, unless the queue is full.
func (g *Gate) Try(f func()) bool {
	select {
	case g.queued <- struct{}{}:
		g.running <- struct{}{}
		defer func() { <-g.running; <-g.queued }()
		f()
		return true
	default:
		return false
	}
}

// A Call is a call through the gate that holds it until Release.
type Call struct {
	hold *sync.Mutex
	res  chan bool
}

// Start starts a call in a goroutine and returns once the goroutine runs.
func (g *Gate) Start() Call {
	runtime.Gosched() // let earlier calls go ahead
	c := Call{hold: &sync.Mutex{}, res: make(chan bool, 1)}
	c.hold.Lock()
	var up sync.WaitGroup
	up.Add(1)
	go func() {
		up.Done()
		c.res <- g.Try(func() { c.hold.Lock(); c.hold.Unlock() })
	}()
	up.Wait()
	return c
}

// Release lets the call finish.
func (c Call) Release() { c.hold.Unlock() }

// Result waits for the call's result (and leaves it for the next reader).
func (c Call) Result() bool {
	ok := <-c.res
	c.res <- ok
	return ok
}
