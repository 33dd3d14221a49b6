// Package poolstop models a worker pool whose results channel is
// unbuffered: a caller that takes only the first result and stops the pool
// leaves the other workers blocked on their result send, because Stop only
// closes quit and the send does not watch it.
package poolstop

import "sync"

// Pool runs jobs on a fixed set of workers.
type Pool struct {
	jobs    chan int
	results chan int
	quit    chan struct{}
	wg      sync.WaitGroup
}

// NewPool starts workers goroutines that apply f to each job.
func NewPool(workers int, f func(int) int) *Pool {
	p := &Pool{jobs: make(chan int), results: make(chan int), quit: make(chan struct{})}
	for i := 0; i < workers; i++ {
		p.wg.Add(1)
		go p.worker(f)
	}
	return p
}

func (p *Pool) worker(f func(int) int) {
	defer p.wg.Done()
	for {
		select {
		case <-p.quit:
			return
		case j := <-p.jobs:
			p.results <- f(j)
		}
	}
}

// Submit hands job j to a worker.
func (p *Pool) Submit(j int) { p.jobs <- j }

// Result returns one result.
func (p *Pool) Result() int { return <-p.results }

// Stop asks the workers to exit.
func (p *Pool) Stop() { close(p.quit) }
