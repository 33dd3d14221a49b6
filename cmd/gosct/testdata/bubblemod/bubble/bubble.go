// Package bubble is a worker pool with an idle timeout (the shape of
// github.com/gammazero/workerpool, whose tests use testing/synctest).
package bubble

import (
	"sync"
	"time"
)

// Pool runs tasks on workers that exit after idle time without work.
type Pool struct {
	tasks   chan func()
	idle    time.Duration
	mu      sync.Mutex
	workers int
	wg      sync.WaitGroup
}

// New returns a pool whose workers exit after idle.
func New(idle time.Duration) *Pool {
	return &Pool{tasks: make(chan func()), idle: idle}
}

// Submit runs f on a worker, starting one if none is free.
func (p *Pool) Submit(f func()) {
	select {
	case p.tasks <- f:
		return
	default:
	}
	p.mu.Lock()
	p.workers++
	p.mu.Unlock()
	p.wg.Add(1)
	go p.work(f)
}

func (p *Pool) work(f func()) {
	defer p.wg.Done()
	t := time.NewTimer(p.idle)
	defer t.Stop()
	for {
		f()
		t.Reset(p.idle)
		select {
		case f = <-p.tasks:
		case <-t.C:
			p.mu.Lock()
			p.workers--
			p.mu.Unlock()
			return
		}
	}
}

// Workers returns the live workers.
func (p *Pool) Workers() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.workers
}

// Wait waits for every worker to exit.
func (p *Pool) Wait() { p.wg.Wait() }
