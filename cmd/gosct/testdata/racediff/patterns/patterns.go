// Package patterns holds race patterns for the differential check
// against Go's race detector (cmd/gosct/racediff_test.go): each test has
// a race that gosct's first depth-first schedule exposes, and Go's race
// detector reports under that schedule; gosct must report it too, naming
// the same two lines. Every racing access is on a line of its own.
package patterns

import "time"

// race runs first in a new goroutine and then second in the calling one,
// with nothing ordering them: the sleep only lets the goroutine run first
// (on gosct's virtual clock: when everything else is blocked).
func race(first, second func()) {
	done := make(chan struct{})
	go func() {
		first()
		close(done)
	}()
	time.Sleep(time.Millisecond)
	second()
	<-done
}

// server has the fields of the shapes Go's detector sees and gosct's used
// not to: channels and functions.
type server struct {
	stopCh  chan struct{}
	onClose func()
	count   int
	name    string
	err     error
}

type pair struct {
	a, b int
}

type inner struct {
	x int
}

type outer struct {
	inner
	y int
}

type outerPtr struct {
	*inner
}

var global int

var table = map[string]int{}
