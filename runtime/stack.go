package runtime

import (
	"sync"
	"unsafe"
)

// A variable on a goroutine's stack is reached by that goroutine only: Go's
// escape analysis moves to the heap whatever another goroutine may reach
// (a closure a go statement runs, a pointer sent on a channel). So an
// access to the accessing goroutine's own stack is never a race, and the
// detector skips it. It must: a goroutine's stack is reused by the next
// goroutine started, and the detector, which does not see stacks freed
// and allocated (Go's tells its detector), would find the new goroutine's
// variables racing with the old one's at the same addresses. Captured
// locals of closures that do not escape (a deferred func, one called in
// place) live there: singleflight's doCall has two.
//
// The bounds come from the g structure, whose first field is the stack
// (runtime.g's stack, "offset known to runtime/cgo"); stackBounds checks
// that at init and is off where it does not hold.

// stackBoundsOK: g's first two words are the bounds of its stack.
var stackBoundsOK bool

//go:norace
func init() { stackBoundsOK = checkStackBounds() }

// onOwnStack reports whether p is on the calling goroutine's stack.
//
//go:nocheckptr
//go:norace
func onOwnStack(p unsafe.Pointer) bool {
	if !stackBoundsOK {
		return false
	}
	b := (*[2]uintptr)(getg())
	return uintptr(p) >= b[0] && uintptr(p) < b[1]
}

// checkStackBounds verifies, on a few goroutines, that g's first two
// words bound a local variable of the goroutine and are a plausible
// stack.
//
//go:nocheckptr
//go:norace
func checkStackBounds() bool {
	if !haveGetg {
		return false
	}
	ok := true
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local [16]byte
			g := getg()
			b := (*[2]uintptr)(g)
			p := uintptr(unsafe.Pointer(&local))
			good := g != nil && b[0] < b[1] && b[1]-b[0] <= 1<<30 && p >= b[0] && p < b[1]
			mu.Lock()
			ok = ok && good
			mu.Unlock()
		}()
	}
	wg.Wait()
	return ok
}
