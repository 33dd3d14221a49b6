package runtime

// Atomics (sync/atomic functions and types, sync.Map methods). The
// operation itself is the real one, performed by the caller right after
// the scheduling point: Atomic precedes it in the rewritten expression.
// One goroutine runs at a time, so the operations are sequentially
// consistent, as the Go memory model specifies for atomics.

// Atomic is the scheduling point before an atomic operation on addr (the
// variable's address, the atomic value's, or the sync.Map).
//
//go:norace
func Atomic(addr any) Token {
	if e, me := enter(); e != nil && e.yieldAny(me, opAtomic, addr) {
		e.raceAtomic(addr)
	}
	return Token{}
}

// Then returns v: Then(Atomic(&x), atomic.LoadInt32(&x)) evaluates the
// scheduling point, then the operation.
//
//go:norace
func Then[T any](_ Token, v T) T { return v }

// AtomicLoad is Atomic for an operation that only reads (atomic.LoadInt32,
// v.Load(), m.Load(k) on a sync.Map): a goroutine spinning on such loads
// changes nothing, which is how the runtime tells a livelock from a long
// test.
//
//go:norace
func AtomicLoad(addr any) Token {
	if e, me := enter(); e != nil && e.yieldAny(me, opAtomicLoad, addr) {
		e.raceAtomic(addr)
	}
	return Token{}
}
