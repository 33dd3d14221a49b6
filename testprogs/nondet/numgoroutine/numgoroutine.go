// Package numgoroutine runs two jobs in the background and waits for them
// by polling runtime.NumGoroutine until the count is back to where it was,
// allowing one goroutine of slack for "the runtime's own". The slack lets
// it return while a job is still running, and the caller reads a result
// that is not there yet.
package numgoroutine

import (
	"runtime"
	"sync"
	"time"
)

// Results collects job results.
type Results struct {
	mu   sync.Mutex
	done []int
}

// RunJobs starts n jobs, the i-th taking i milliseconds, and waits for
// them.
func RunJobs(r *Results, n int) {
	before := runtime.NumGoroutine()
	for i := 0; i < n; i++ {
		go func(i int) {
			time.Sleep(time.Duration(i) * time.Millisecond)
			r.mu.Lock()
			r.done = append(r.done, i)
			r.mu.Unlock()
		}(i)
	}
	for runtime.NumGoroutine() > before+1 { // BUG: the slack hides a running job
		runtime.Gosched()
	}
}

// Count returns how many jobs are done.
func (r *Results) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.done)
}
