// Package pingpong is the fixed workload of gosct's speed measurements
// (docs/performance.md): a test of 3 goroutines and about 30 scheduling
// points, with no bug.
package pingpong

import "runtime"

// Collect starts two workers that each send 5 values and yield after each,
// and returns the sum of the 10 values.
func Collect() int {
	c := make(chan int)
	done := make(chan bool)
	for w := 0; w < 2; w++ {
		go func() {
			for i := 0; i < 5; i++ {
				c <- i
				runtime.Gosched()
			}
			done <- true
		}()
	}
	sum := 0
	for i := 0; i < 10; i++ {
		sum += <-c
	}
	<-done
	<-done
	return sum
}
