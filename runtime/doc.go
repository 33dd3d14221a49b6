// Package runtime is gosct's controlled runtime, linked into instrumented
// test binaries. The rewriter (package rewrite) replaces every operation
// through which goroutines interact with a call to a hook of this package,
// imported as gosct: gosct.Send(ch, v), gosct.Lock(&mu), gosct.Go(f), ...
//
// Outside a controlled execution every hook does exactly what the original
// operation did (pass-through). Inside one, started by Test when the
// GOSCT_CONFIG environment variable asks for it, the goroutines of the test
// run one at a time: each hook is a scheduling point at which the calling
// goroutine stops and a strategies.Strategy chooses which enabled goroutine
// takes the next step. Operations are then performed by the runtime's model
// of Go's semantics (channel queues, mutex owners, a virtual clock), which
// knows which goroutines are blocked and on what. That is how it detects
// deadlocks, goroutines leaked at the end of a test, panics, failures and
// livelocks, and why a recorded sequence of decisions replays a bug exactly.
//
// docs/runtime.md describes the model: what a scheduling point is, what a
// decision is, what is recorded, and what is not controlled.
//
// The package uses the standard library only.
package runtime
