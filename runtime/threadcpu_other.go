//go:build !linux

package runtime

import (
	"time"
	"unsafe"
)

// Without a thread's CPU clock the watchdog charges a holder's computing
// in wall time (threadcpu_linux.go).

const threadCPUOK = false

//go:norace
func calibrateThreadCPU() {}

//go:norace
func holderThread(unsafe.Pointer) uint64 { return 0 }

//go:norace
func threadCPU(uint64) (time.Duration, bool) { return 0, false }
