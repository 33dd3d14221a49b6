// Package gate models an admission gate: a call queues (at most cap(queued)
// wait; beyond that it is refused), then runs when every call queued
// before it has run. A call queues in Start, in the caller's goroutine, so
// calls run in the order they were started.
package gate

import (
	"runtime"
	"sync"
)

// Gate admits calls, one running at a time, in the order they queued.
type Gate struct {
	queued chan struct{}
	mu     sync.Mutex
	last   chan struct{} // closed when the last call queued has run
}

// New returns a gate with room for queue waiting calls.
func New(queue int) *Gate {
	done := make(chan struct{})
	close(done)
	return &Gate{queued: make(chan struct{}, queue), last: done}
}

// enter queues a call now, unless the queue is full; the function it
// returns runs f once the calls queued before have run.
func (g *Gate) enter() func(f func()) bool {
	select {
	case g.queued <- struct{}{}:
	default:
		return func(func()) bool { return false }
	}
	g.mu.Lock()
	prev, mine := g.last, make(chan struct{})
	g.last = mine
	g.mu.Unlock()
	return func(f func()) bool {
		<-prev
		defer func() { close(mine); <-g.queued }()
		f()
		return true
	}
}

// A Call is a call through the gate that holds it until Release.
type Call struct {
	hold *sync.Mutex
	res  chan bool
}

// Start queues a call and runs it in a goroutine; it returns once the
// goroutine runs.
func (g *Gate) Start() Call {
	runtime.Gosched() // let earlier calls go ahead
	c := Call{hold: &sync.Mutex{}, res: make(chan bool, 1)}
	c.hold.Lock()
	run := g.enter()
	var up sync.WaitGroup
	up.Add(1)
	go func() {
		up.Done()
		c.res <- run(func() { c.hold.Lock(); c.hold.Unlock() })
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
