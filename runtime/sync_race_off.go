//go:build !race

package runtime

import "unsafe"

func goRaceAcquire(p unsafe.Pointer)      {}
func goRaceRelease(p unsafe.Pointer)      {}
func goRaceReleaseMerge(p unsafe.Pointer) {}
