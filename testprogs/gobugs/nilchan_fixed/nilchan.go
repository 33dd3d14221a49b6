// Package nilchan is the fixed version: failures are reported only when an
// errors channel exists, without blocking and without a detached goroutine.
package nilchan

import (
	"fmt"
	"sync"
)

// Runner runs jobs and counts failures.
type Runner struct {
	mu     sync.Mutex
	failed int
	errs   chan error
}

// EnableErrors makes failures available on the returned channel.
func (r *Runner) EnableErrors() <-chan error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.errs == nil {
		r.errs = make(chan error, 16)
	}
	return r.errs
}

// Run runs every job and waits for them.
func (r *Runner) Run(jobs []func() error) {
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Add(1)
		go func(i int, job func() error) {
			defer wg.Done()
			if err := job(); err != nil {
				r.mu.Lock()
				r.failed++
				errs := r.errs
				r.mu.Unlock()
				if errs != nil {
					select {
					case errs <- fmt.Errorf("job %d: %w", i, err):
					default: // a full channel drops the report rather than blocking
					}
				}
			}
		}(i, job)
	}
	wg.Wait()
}

// Failed returns the number of failed jobs.
func (r *Runner) Failed() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed
}
