// Package timenow spreads jobs over two queues by the parity of the
// current time in milliseconds. Only queue 0 has a worker ("queue 1 is
// drained by the batch job"): a job submitted in an odd millisecond is
// never served, and its submitter waits for ever.
package timenow

import (
	"sync"
	"time"
)

// Pool has two queues and one worker.
type Pool struct {
	queues [2]chan chan int
	wg     sync.WaitGroup
}

// NewPool starts the worker of queue 0.
func NewPool() *Pool {
	p := &Pool{queues: [2]chan chan int{make(chan chan int, 4), make(chan chan int, 4)}}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for reply := range p.queues[0] {
			reply <- 1
		}
	}()
	return p
}

// Do submits a job and waits for its result.
func (p *Pool) Do() int {
	reply := make(chan int)
	q := time.Now().UnixMilli() % 2 // BUG: queue 1 has no worker
	p.queues[q] <- reply
	return <-reply
}

// Close stops the worker.
func (p *Pool) Close() {
	close(p.queues[0])
	p.wg.Wait()
}
