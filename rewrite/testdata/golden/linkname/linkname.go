package linkname

import (
	"time"
	_ "unsafe" // go:linkname
)

// The clock functions of Go's runtime, reached with go:linkname under
// other names, read the virtual clock.

//go:noescape
//go:linkname now time.now
func now() (sec int64, nsec int32, mono int64)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

//go:linkname walltime runtime.walltime
func walltime() (int64, int32)

// A linkname to another function is left alone.
//
//go:linkname fastrand runtime.cheaprand
func fastrand() uint32

// Elapsed reads every clock across a sleep.
func Elapsed(d time.Duration) (wall, mono, nano, walltimeNs int64) {
	s0, n0, m0 := now()
	t0 := nanotime()
	ws0, wn0 := walltime()
	time.Sleep(d)
	s1, n1, m1 := now()
	ws1, wn1 := walltime()
	return (s1-s0)*1e9 + int64(n1-n0), m1 - m0, nanotime() - t0, (ws1-ws0)*1e9 + int64(wn1-wn0)
}

// Rand is the other linkname's use.
func Rand() uint32 { return fastrand() }
