//go:build !linux

package runtime

import "time"

//go:norace
func napInit() {}

// nap pauses the watchdog briefly (nap_linux.go).
//
//go:norace
func nap(d time.Duration) { time.Sleep(d) }
