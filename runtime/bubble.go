package runtime

import "time"

// testing/synctest. synctest.Test runs its function in a bubble: new
// goroutines, a fake clock that moves only when every goroutine of the
// bubble is durably blocked, and a deadlock check when the function
// returns. Go's runtime keeps the bubble, and forbids operations that cross
// its border: a channel made in a bubble used from outside is a fatal
// error. So gosct leaves bubbles alone: their goroutines are never adopted
// into an execution, their hooks pass through (a hook's sleep is the
// bubble's fake sleep), and the test goroutine waiting in synctest.Test is
// a goroutine blocked in uncontrolled code (detached, and waited for). The
// test passes or fails as under go test; the interleavings inside the
// bubble are not explored.

// inBubble reports whether the calling goroutine is in a synctest bubble:
// time.Now there is the bubble's fake clock, which has no monotonic
// reading (Go's runtime/time.go, time_now), where a real time.Now always
// has one. Round(0) strips the monotonic reading.
//
//go:norace
func inBubble() bool {
	t := time.Now()
	return t == t.Round(0)
}
