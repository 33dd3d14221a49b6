package runtime

import "syscall"

// nap pauses the watchdog for a few tens of microseconds. time.Sleep
// cannot: an idle Go scheduler rounds short timers up to a millisecond
// (measured: time.Sleep(50µs) takes 1.1 ms here), while nanosleep takes
// about the timer slack of Linux (50 µs) more than asked.
//
//go:norace
func nap() {
	ts := syscall.Timespec{Nsec: 20_000}
	syscall.Nanosleep(&ts, nil)
}
