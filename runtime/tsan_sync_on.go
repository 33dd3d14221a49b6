//go:build race

package runtime

import (
	"runtime"
	"unsafe"
)

// Under -race, the model's synchronization must create the happens-before
// edges the real sync objects would: the runtime's own hand-offs create
// none (tsan_on.go), so without these a mutex-protected access would be
// reported as a race. They are called by the goroutine that synchronizes.

//go:norace
func goRaceAcquire(p unsafe.Pointer) { runtime.RaceAcquire(p) }

//go:norace
func goRaceRelease(p unsafe.Pointer) { runtime.RaceRelease(p) }

//go:norace
func goRaceReleaseMerge(p unsafe.Pointer) { runtime.RaceReleaseMerge(p) }
