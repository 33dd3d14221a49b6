//go:build go1.21

// Before go1.22 a range's := variables are one per loop: the loop's
// write at each iteration races with a goroutine that captured them.
package implicit

func oldRange(xs []int) {
	for i, v := range xs {
		go func() { _ = i + v }()
	}
	for _, v := range xs { // not shared: nothing
		_ = v
	}
	ch := make(chan int)
	for v := range ch {
		go func() { _ = v }()
	}
}
