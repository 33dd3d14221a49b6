// Package forward is a fixture of gosct confirm: each Drop runs a
// goroutine that forwards what is sent on In to Out when a receiver
// waits, else drops it. A test that makes two runs the same function in
// two goroutines; its bug needs the second held, not the first.
package forward

// Drop forwards or drops.
type Drop struct{ In, Out chan int }

// New starts a Drop's goroutine.
func New() *Drop {
	d := &Drop{In: make(chan int), Out: make(chan int)}
	go d.run()
	return d
}

func (d *Drop) run() {
	for v := range d.In {
		select {
		case d.Out <- v:
		default:
		}
	}
	close(d.Out)
}
