// Package lateleak is a fixture of gosct confirm: a goroutine that
// reaches the place where it leaks only when a timer fires, after the
// test has returned.
package lateleak

import "time"

// Notify sends on ch after d, from a goroutine of its own.
func Notify(ch chan int, d time.Duration) {
	time.AfterFunc(d, func() {
		ch <- 1
	})
}
