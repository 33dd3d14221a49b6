package linkclock

// tnano is runtime.nanotime, by the directive in clock.go.
func tnano() int64

// TimeNano is runtime.nanotime, linknamed in another file than its
// declaration.
func TimeNano() int64 { return tnano() }
