// Package poolstop is the fixed version: a worker's result send also
// watches quit, and Stop waits for the workers.
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
			select {
			case p.results <- f(j):
			case <-p.quit:
				return
			}
		}
	}
}

// Submit hands job j to a worker.
func (p *Pool) Submit(j int) { p.jobs <- j }

// Result returns one result.
func (p *Pool) Result() int { return <-p.results }

// Stop makes the workers exit and waits for them.
func (p *Pool) Stop() {
	close(p.quit)
	p.wg.Wait()
}
