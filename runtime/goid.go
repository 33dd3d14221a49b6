package runtime

import (
	"runtime"
	"strconv"
	"sync"
	"unsafe"
)

// The runtime must tell the goroutine that holds the scheduling token from
// any other goroutine that calls a hook (one the watchdog detached, one
// started by uninstrumented code). Go has no API for a goroutine id and
// parsing runtime.Stack costs about 2µs, too much for every scheduling point.
// So, where we can read the g pointer (goid_amd64.s, goid_arm64.s), we find
// the offset of g.goid once, by comparing the g structures of a few
// goroutines with the ids runtime.Stack prints, and read it directly after.
// This adapts to any Go version's layout of g; if calibration fails we fall
// back to runtime.Stack.

// goidOffset is set once, by init, and read-only after.
var goidOffset = -1

//go:norace
func init() { calibrateGoid() }

// goid returns the runtime's id of the calling goroutine.
//
//go:norace
func goid() int64 {
	if goidOffset < 0 {
		return slowGoid()
	}
	return readGoid(getg(), goidOffset)
}

//go:nocheckptr
//go:norace
func readGoid(g unsafe.Pointer, off int) int64 {
	return *(*int64)(unsafe.Add(g, off))
}

// slowGoid parses "goroutine 123 [running]:" from the stack header.
//
//go:norace
func slowGoid() int64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	s := buf[:n]
	const prefix = "goroutine "
	if len(s) < len(prefix) {
		return 0
	}
	s = s[len(prefix):]
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	id, _ := strconv.ParseInt(string(s[:i]), 10, 64)
	return id
}

// calibrateGoid finds the offset of goid in the g structure: the offset at
// which every sampled goroutine's g holds its own id.
//
//go:norace
func calibrateGoid() {
	if !haveGetg {
		return
	}
	const samples = 4
	type sample struct {
		g  unsafe.Pointer
		id int64
	}
	var ss [samples]sample
	var wg sync.WaitGroup
	hold := make(chan struct{})
	// The goroutines stay alive while their g structures are read.
	for i := 0; i < samples; i++ {
		wg.Add(1)
		go func(i int) {
			ss[i] = sample{getg(), slowGoid()}
			wg.Done()
			<-hold
		}(i)
	}
	wg.Wait()
	defer close(hold)
	for off := 0; off <= 512; off += 8 {
		ok := true
		for _, s := range ss {
			if s.id == 0 || readGoid(s.g, off) != s.id {
				ok = false
				break
			}
		}
		if ok {
			goidOffset = off
			return
		}
	}
}
