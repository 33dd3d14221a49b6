// Package linkclockdep reads Go's monotonic clock through //go:linkname,
// in a dependency module.
package linkclockdep

import (
	_ "unsafe" // go:linkname
)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Nano is runtime.nanotime.
func Nano() int64 { return nanotime() }
