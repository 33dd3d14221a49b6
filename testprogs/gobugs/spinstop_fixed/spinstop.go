// Package spinstop is the fixed version: the report channel has room for
// the report, so the worker can always deliver it and exit, even when the
// caller has given up waiting.
package spinstop

import "time"

// Measure runs work in a loop for about budget and returns the number of
// calls, or false when the worker did not report in time.
func Measure(budget time.Duration, work func()) (int, bool) {
	stop := make(chan struct{})
	report := make(chan int, 1)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				report <- n
				return
			default:
			}
			work()
			n++
		}
	}()
	time.Sleep(budget)
	close(stop)
	select {
	case n := <-report:
		return n, true
	case <-time.After(budget):
		return 0, false
	}
}
