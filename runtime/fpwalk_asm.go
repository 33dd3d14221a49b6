//go:build (amd64 || arm64) && go1.23 && !go1.27

package runtime

import (
	_ "unsafe" // go:linkname
)

// haveFP tells that record can walk frame pointers here: amd64 and arm64
// keep them, and Go's runtime has the expansion resolution needs.
//
// The build constraint stops after the Go release this was checked on
// (1.26; the linked function exists since 1.23). fpunwindExpand is linked
// by name to a function Go's runtime keeps for runtime/pprof, not to an
// API: a later release could rename it, and the user's test binary would
// then fail to link. Until checked, a newer release records by
// runtime.Callers, slower and the same; raise the bound once
// TestRecordFramePointersAsCallers passes on it.
const haveFP = true

// fpCallers writes the return addresses of its caller's callers, following
// frame pointers (fpwalk_$GOARCH.s); ok is false when the chain left the
// goroutine's stack or went through [avoidLo, avoidHi).
//
//go:noescape
//go:norace
func fpCallers(pcs *uintptr, max int, avoidLo, avoidHi uintptr) (n int, ok bool)

// fpunwindExpand turns return addresses found by frame pointers (src[1:])
// into the program counters runtime.Callers would have given for the same
// frames, src[0] of them skipped: inlined calls expanded, wrappers left
// out (Go's execution tracer and block profiler use it; the runtime
// exports it for runtime/pprof, since Go 1.23).
//
//go:linkname fpunwindExpand runtime.pprof_fpunwindExpand
//go:norace
func fpunwindExpand(dst, src []uintptr) int
