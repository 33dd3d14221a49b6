package runtime

import "unsafe"

// Atomics (sync/atomic functions and types, sync.Map methods). The
// operation itself is the real one, performed by the caller right after
// the scheduling point: Atomic precedes it in the rewritten expression.
// One goroutine runs at a time, so the operations are sequentially
// consistent, as the Go memory model specifies for atomics.
//
// For the race detector an atomic operation is both an access and a
// synchronization, as ThreadSanitizer models it (and so Go's -race): the
// access (atomic, of the operand's size) is checked first, with the
// goroutine's clock before the operation; then a load acquires the
// address's clock, a store releases into it (replacing it: the value a
// later load observes is this store's), and a read-modify-write does
// both. Atomic accesses never race with each other; against a plain
// access to an overlapping byte they do.

// Atomic is the scheduling point before an atomic read-modify-write
// (Add, Swap, And, Or) on addr (the variable's address, the atomic
// value's), or before an operation on a sync.Map or sync.Pool.
//
//go:norace
func Atomic(addr any) Token {
	if e, me := enter(); e != nil && e.yieldEv(me, opAtomic, evRecord{addr: addr}) {
		e.raceAtomic(addr, accWrite, true, true)
	}
	return Token{}
}

// AtomicLoad is Atomic for an operation that only reads (atomic.LoadInt32,
// v.Load(), m.Load(k) on a sync.Map): a goroutine spinning on such loads
// changes nothing, which is how the runtime tells a livelock from a long
// test.
//
//go:norace
func AtomicLoad(addr any) Token {
	if e, me := enter(); e != nil && e.yieldEv(me, opAtomicLoad, evRecord{addr: addr}) {
		e.raceAtomic(addr, accRead, true, false)
	}
	return Token{}
}

// AtomicStore is Atomic for a store (atomic.StoreInt32, v.Store(x)).
//
//go:norace
func AtomicStore(addr any) Token {
	if e, me := enter(); e != nil && e.yieldEv(me, opAtomic, evRecord{addr: addr}) {
		e.raceAtomic(addr, accWrite, false, true)
	}
	return Token{}
}

// AtomicCAS is Atomic for a compare-and-swap: it acquires; ThenCAS
// releases when the swap happened (a failed one only loads).
//
//go:norace
func AtomicCAS(addr any) Token {
	if e, me := enter(); e != nil && e.yieldEv(me, opAtomic, evRecord{addr: addr}) {
		e.raceAtomic(addr, accWrite, true, false)
		e.mu.Lock()
		e.race.hb.pending = dataPtr(addr)
		e.mu.Unlock()
	}
	return Token{}
}

// ThenCAS returns swapped, the result of the compare-and-swap after
// AtomicCAS: a successful swap releases the address's clock.
//
//go:norace
func ThenCAS(_ Token, swapped bool) bool {
	e := active.Load()
	if e == nil || e.set.races == racesOff {
		return swapped
	}
	e.mu.Lock()
	p := e.race.hb.pending
	e.race.hb.pending = nil
	if swapped && p != nil && !e.over {
		e.race.release(e.cur.Load(), p)
	}
	e.mu.Unlock()
	return swapped
}

// Then returns v: Then(Atomic(&x), atomic.LoadInt32(&x)) evaluates the
// scheduling point, then the operation.
//
//go:norace
func Then[T any](_ Token, v T) T { return v }

// PoolPut returns x, which the program puts into a sync.Pool after the
// scheduling point tok: the Put happens before the Get that returns x
// (as sync.Pool tells Go's race detector, object by object).
//
//go:norace
func PoolPut(_ Token, x any) any {
	if e, ok := shadowExec(); ok {
		if p := dataPtr(x); p != nil {
			e.mu.Lock()
			if !e.over {
				e.race.release(e.cur.Load(), poolKey(p))
			}
			e.mu.Unlock()
		}
	}
	return x
}

// PoolGot returns x, which sync.Pool's Get returned after the scheduling
// point tok: it happens after the Put of x.
//
//go:norace
func PoolGot(_ Token, x any) any {
	if e, ok := shadowExec(); ok {
		if p := dataPtr(x); p != nil {
			e.mu.Lock()
			if !e.over {
				e.race.acquire(e.cur.Load(), poolKey(p))
			}
			e.mu.Unlock()
		}
	}
	return x
}

// poolKey is the sync object of a pooled object: not its address, which
// the program's own synchronization on the object may use.
//
//go:norace
func poolKey(p unsafe.Pointer) unsafe.Pointer { return unsafe.Add(p, 1) }
