package runtime

import "unsafe"

// Shared memory. The rewriter turns every access to memory that another
// goroutine may reach (package-level variables, captured locals, memory
// behind pointers, slice elements, maps) into Load, Store, Read or Write.
// Each is a scheduling point before the access, so that every
// interleaving of accesses is reachable (two goroutines incrementing a
// counter without a lock can lose an update), and tells the race detector
// about the access.
//
// settings.accessPoints (on by default) can turn the scheduling points
// off: accesses then happen with the surrounding synchronization
// operations, which makes schedules much shorter (only synchronization
// interleaves), and racy outcomes are left to the race detector to
// report. Sequential consistency holds either way: one goroutine runs at
// a time.

// Token is the result of Atomic, Read and Write: it lets the rewriter put
// the scheduling point inside an expression, before the access
// (Then(Atomic(&x), atomic.AddInt32(&x, 1))).
type Token struct{}

// Load reads *p: the rewriting of a read of a shared variable.
func Load[T any](p *T) T {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yieldMem(me, opRead, unsafe.Pointer(p), unsafe.Sizeof(*p)) {
			return *p
		}
		e.raceRead(unsafe.Pointer(p), unsafe.Sizeof(*p))
	}
	return *p
}

// Store writes v to *p: the rewriting of x = v for a shared variable.
func Store[T any](p *T, v T) {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yieldMem(me, opWrite, unsafe.Pointer(p), unsafe.Sizeof(*p)) {
			*p = v
			return
		}
		e.raceWrite(unsafe.Pointer(p), unsafe.Sizeof(*p))
	}
	*p = v
}

// Read is the scheduling point before a shared read the rewriter cannot
// turn into Load (a map index, a complex expression): addr is the
// variable's address, or the map itself.
//
//go:norace
func Read(addr any) Token {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yieldAny(me, opRead, addr) {
			return Token{}
		}
		e.raceRead(dataPtr(addr), 0)
	}
	return Token{}
}

// Write is the scheduling point before a shared write the rewriter cannot
// turn into Store (a map assignment, a complex lvalue).
//
//go:norace
func Write(addr any) Token {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yieldAny(me, opWrite, addr) {
			return Token{}
		}
		e.raceWrite(dataPtr(addr), 0)
	}
	return Token{}
}

// dataPtr is the pointer held by an interface holding a pointer, map or
// channel: the identity of the memory accessed.
//
//go:norace
func dataPtr(x any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1] }

// ptrOf is the address of a sync object, for the race detector.
//
//go:norace
func ptrOf[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }

// The detector's hooks (raceRead, raceWrite, raceAcquire, raceRelease,
// raceReleaseMerge) are in race_detect.go and race_hb.go.
