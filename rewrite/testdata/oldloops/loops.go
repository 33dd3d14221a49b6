// Package loops checks that closures capture loop variables as the
// module's Go version says, also in rewritten range-over-channel loops.
package oldloops

// Capture collects closures made in a range loop over a channel and
// returns what they see when called after the loop.
func Capture() []int {
	ch := make(chan int, 3)
	ch <- 1
	ch <- 2
	ch <- 3
	close(ch)
	var fs []func() int
	for v := range ch {
		fs = append(fs, func() int { return v })
	}
	var out []int
	for _, f := range fs {
		out = append(out, f())
	}
	return out
}
