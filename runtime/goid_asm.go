//go:build amd64 || arm64

package runtime

import "unsafe"

const haveGetg = true

// getg returns the calling goroutine's g pointer (goid_$GOARCH.s).
//
//go:norace
func getg() unsafe.Pointer
