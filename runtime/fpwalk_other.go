//go:build !((amd64 || arm64) && go1.23 && !go1.27)

package runtime

// haveFP tells that record can walk frame pointers: not here (record uses
// runtime.Callers).
const haveFP = false

//go:norace
func fpCallers(pcs *uintptr, max int, avoidLo, avoidHi uintptr) (n int, ok bool) {
	return 0, false
}

//go:norace
func fpunwindExpand(dst, src []uintptr) int { return 0 }
