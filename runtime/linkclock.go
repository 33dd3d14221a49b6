package runtime

// The clock functions of Go's runtime that packages declare with
// //go:linkname and no body (time.now, runtime.nanotime,
// runtime.walltime) bypass time.Now. The rewriter gives such a
// declaration a body calling one of these hooks (docs/rewrite.md,
// "Linknamed clocks"), so that it reads the virtual clock.
//
// Each returns the parts of the instant Now returns. The virtual clock has
// no monotonic reading apart from its wall reading (it starts at the
// execution's epoch and never steps back), so the monotonic value is that
// instant in nanoseconds since 1970: differences of two readings are the
// virtual time elapsed between them, as time.Since gives. Outside an
// execution they read the real clock (Now is time.Now); the epoch is
// never before the real now, so a reading before an execution is not
// after one made in it.

// LinkTimeNow is time.now on the virtual clock.
//
//go:norace
func LinkTimeNow() (sec int64, nsec int32, mono int64) {
	t := Now()
	return t.Unix(), int32(t.Nanosecond()), t.UnixNano()
}

// LinkNanotime is runtime.nanotime on the virtual clock.
//
//go:norace
func LinkNanotime() int64 { return Now().UnixNano() }

// LinkWalltime is runtime.walltime on the virtual clock.
//
//go:norace
func LinkWalltime() (sec int64, nsec int32) {
	t := Now()
	return t.Unix(), int32(t.Nanosecond())
}
