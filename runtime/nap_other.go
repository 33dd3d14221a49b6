//go:build !linux

package runtime

import "time"

// nap pauses the watchdog briefly (nap_linux.go).
//
//go:norace
func nap() { time.Sleep(20 * time.Microsecond) }
