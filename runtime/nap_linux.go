package runtime

import (
	"runtime"
	"syscall"
	"time"
)

// napInit prepares the watchdog's thread for short naps: the goroutine
// keeps its thread, whose timer slack (50 µs by default, added to every
// sleep) is lowered to a microsecond.
//
//go:norace
func napInit() {
	runtime.LockOSThread()
	const prSetTimerslack = 29
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerslack, 1000, 0)
}

// nap pauses the watchdog for d, a few tens of microseconds. time.Sleep
// cannot: an idle Go scheduler rounds short timers up to a millisecond
// (measured: time.Sleep(50µs) takes 1.1 ms here).
//
//go:norace
func nap(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Nanosleep(&ts, nil)
}
