package runtime

// growStack grows the calling goroutine's stack, where it is shallow, to
// the size the runtime's hooks need.
//
// Go starts a goroutine with a 2 KB stack (less its guard, about 1 KB to
// use), and a goroutine of an execution soon goes deeper: a hook, the
// strategy's decision, the detector. Growing there copies the stack at a
// depth of fifteen frames or more, and a copy's cost is in walking and
// adjusting those frames, not in the bytes: in the pipeline test
// (testprogs/perf/pingpong) it was a tenth of the test binary's time when
// every execution started its goroutines anew. Growing at the goroutine's
// first frame costs the same allocation and walks two frames; the stack
// ends at 4 KB as it would have (the frame asks for 2 KB plus the guard:
// a 2 KB stack doubles once; a 4 KB one, as Go's adaptive start may give,
// does not grow).
//
// Called first by each worker (pool.go), which runs the goroutines the
// runtime starts for executions, and by a schedule's subtest function in
// runOnce.
//
//go:noinline
//go:norace
func growStack() {
	var frame [2 << 10]byte
	growSink = frame[growIndex]
}

// growIndex and growSink keep growStack's frame: an index the compiler
// cannot see and a result it must keep.
var (
	growIndex = 1
	growSink  byte
)
