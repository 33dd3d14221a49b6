// Package linkclock reads Go's clock through //go:linkname, as
// go-limiter's internal/fasttime and other libraries do.
package linkclock

import (
	_ "unsafe" // go:linkname
)

//go:noescape
//go:linkname now time.now
func now() (sec int64, nsec int32, mono int64)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// The directive of a function declared in another file (tnano.go).
//
//go:linkname tnano runtime.nanotime

// Wall is the wall clock in nanoseconds since 1970, through time.now.
func Wall() int64 {
	sec, nsec, _ := now()
	return sec*1e9 + int64(nsec)
}

// Mono is time.now's monotonic reading.
func Mono() int64 {
	_, _, mono := now()
	return mono
}

// Nano is runtime.nanotime.
func Nano() int64 { return nanotime() }
