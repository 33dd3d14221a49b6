//go:build !amd64 && !arm64

package runtime

import "unsafe"

const haveGetg = false

//go:norace
func getg() unsafe.Pointer { return nil }
