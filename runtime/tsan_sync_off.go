//go:build !race

package runtime

import "unsafe"

//go:norace
func goRaceAcquire(p unsafe.Pointer) {}

//go:norace
func goRaceRelease(p unsafe.Pointer) {}

//go:norace
func goRaceReleaseMerge(p unsafe.Pointer) {}
