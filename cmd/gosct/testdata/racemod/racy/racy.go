// Package racy has data races that Go's race detector must report when
// its tests run under gosct with -race.
package racy

var x int

func write(v int) {
	x = v // the racing write
}

// Race writes x from two goroutines with no synchronization. Under gosct's
// first depth-first schedule the test goroutine writes, blocks on done,
// and the other goroutine writes: only the runtime's hand-off lies
// between the two writes.
func Race() int {
	done := make(chan bool)
	go func() {
		write(1)
		done <- true
	}()
	write(2)
	<-done
	return x
}
