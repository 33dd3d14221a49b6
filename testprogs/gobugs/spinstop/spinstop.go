// Package spinstop models a measurement loop: a worker spins doing work
// until it is told to stop, then reports how much it did. The caller lets
// it run for a time budget, stops it, and waits for the report, giving up
// after the same budget. The report channel is unbuffered: when the caller
// gives up first, the worker blocks on its report for ever.
package spinstop

import "time"

// Measure runs work in a loop for about budget and returns the number of
// calls, or false when the worker did not report in time.
func Measure(budget time.Duration, work func()) (int, bool) {
	stop := make(chan struct{})
	report := make(chan int)
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
