package runtime

import (
	"reflect"
	"unsafe"
)

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

// Load reads *p: the rewriting of a read of a shared variable (LoadAt
// with no site: the report names the access by its position only).
func Load[T any](p *T) T {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yield(me, opRead) {
			return *p
		}
		e.raceRead(unsafe.Pointer(p), unsafe.Sizeof(*p), nil)
	}
	return *p
}

// LoadAt reads *p: the rewriting of a read of a shared variable, made at
// site s.
func LoadAt[T any](p *T, s *Site) T {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yield(me, opRead) {
			return *p
		}
		e.raceRead(unsafe.Pointer(p), unsafe.Sizeof(*p), s)
	}
	return *p
}

// Store writes v to *p: the rewriting of x = v for a shared variable
// (StoreAt with no site).
func Store[T any](p *T, v T) {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yield(me, opWrite) {
			*p = v
			return
		}
		e.raceWrite(unsafe.Pointer(p), unsafe.Sizeof(*p), nil)
	}
	*p = v
}

// StoreAt writes v to *p: the rewriting of x = v for a shared variable,
// made at site s.
func StoreAt[T any](p *T, v T, s *Site) {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yield(me, opWrite) {
			*p = v
			return
		}
		e.raceWrite(unsafe.Pointer(p), unsafe.Sizeof(*p), s)
	}
	*p = v
}

// Read is the scheduling point before a shared read the rewriter cannot
// turn into Load (a map index, a complex expression): addr is the
// variable's address, or the map itself.
//
//go:norace
func Read(addr any) Token { return ReadAt(addr, nil) }

// ReadAt is Read made at site s.
//
//go:norace
func ReadAt(addr any, s *Site) Token {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yield(me, opRead) {
			return Token{}
		}
		if e.hbOn() {
			p, size := addrSize(addr)
			e.raceRead(p, size, s)
		}
	}
	return Token{}
}

// Write is the scheduling point before a shared write the rewriter cannot
// turn into Store (a map assignment, a complex lvalue).
//
//go:norace
func Write(addr any) Token { return WriteAt(addr, nil) }

// WriteAt is Write made at site s.
//
//go:norace
func WriteAt(addr any, s *Site) Token {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yield(me, opWrite) {
			return Token{}
		}
		if e.hbOn() {
			p, size := addrSize(addr)
			e.raceWrite(p, size, s)
		}
	}
	return Token{}
}

// Shadow-only accesses: checked by the race detector, never scheduling
// points. The rewriter uses them for the accesses that would add
// scheduling points for little gain (docs/rewrite.md): variables of
// channel and function types (a channel operation or a call right after
// is a scheduling point anyway), the implicit write of a range loop's
// variables at each iteration, and the implicit read of named results by
// a return.

// shadowExec is the execution an access is checked in, if the detector
// runs: the cheap test first, so that with races off a shadow access
// costs a load and a branch.
//
//go:norace
func shadowExec() (*execution, bool) {
	e := active.Load()
	if e == nil || e.set.races == racesOff {
		return nil, false
	}
	e2, me := enter()
	return e2, me != nil && e2 != nil
}

// ShadowLoad reads *p, a race-checked read at site s that is not a
// scheduling point.
func ShadowLoad[T any](p *T, s *Site) T {
	if e, ok := shadowExec(); ok {
		e.raceRead(unsafe.Pointer(p), unsafe.Sizeof(*p), s)
	}
	return *p
}

// ShadowStore writes v to *p, a race-checked write at site s that is not
// a scheduling point.
func ShadowStore[T any](p *T, v T, s *Site) {
	if e, ok := shadowExec(); ok {
		e.raceWrite(unsafe.Pointer(p), unsafe.Sizeof(*p), s)
	}
	*p = v
}

// ShadowRead tells the detector about a read the program makes
// implicitly (a bare return reading its named results) or that is not
// worth a scheduling point (an element of a map of channels): addr is
// the variable's address, or the map. It returns a Token so that it can
// stand before an expression (Then).
//
//go:norace
func ShadowRead(addr any, s *Site) Token {
	if e, ok := shadowExec(); ok {
		p, size := addrSize(addr)
		e.raceRead(p, size, s)
	}
	return Token{}
}

// ShadowWrite tells the detector about a write the program makes
// implicitly (a range loop assigning its variables) or that is not worth
// a scheduling point.
//
//go:norace
func ShadowWrite(addr any, s *Site) Token {
	if e, ok := shadowExec(); ok {
		p, size := addrSize(addr)
		e.raceWrite(p, size, s)
	}
	return Token{}
}

// ShadowMapRead returns the map m after a shadow-only read of it (len(m)).
//
//go:norace
func ShadowMapRead[M any](m M, s *Site) M {
	if e, ok := shadowExec(); ok {
		p, size := addrSize(any(m))
		e.raceRead(p, size, s)
	}
	return m
}

// ShadowDeref returns p, after a shadow-only read of *p: the copy a
// value-receiver method called through a pointer makes (p.get()).
//
//go:norace
func ShadowDeref[T any](p *T, s *Site) *T {
	if p != nil {
		if e, ok := shadowExec(); ok {
			e.raceRead(unsafe.Pointer(p), unsafe.Sizeof(*p), s)
		}
	}
	return p
}

// Copy is copy(dst, src), with shadow-only accesses of the ranges it
// writes and reads.
//
//go:norace
func Copy[E any](dst, src []E, s *Site) int {
	if n := min(len(dst), len(src)); n > 0 {
		if e, ok := shadowExec(); ok {
			size := uintptr(n) * unsafe.Sizeof(dst[0])
			e.raceRead(unsafe.Pointer(unsafe.SliceData(src)), size, s)
			e.raceWrite(unsafe.Pointer(unsafe.SliceData(dst)), size, s)
		}
	}
	return copy(dst, src)
}

// CopyString is copy(dst, src) from a string (whose bytes never change):
// a shadow-only write of the range of dst it writes.
//
//go:norace
func CopyString(dst []byte, src string, s *Site) int {
	if n := min(len(dst), len(src)); n > 0 {
		if e, ok := shadowExec(); ok {
			e.raceWrite(unsafe.Pointer(unsafe.SliceData(dst)), uintptr(n), s)
		}
	}
	return copy(dst, src)
}

// addrSize is the memory an access hook's addr names: a pointer's
// target, or one byte at a map's (or channel's) header, which stands for
// the whole map.
//
//go:norace
func addrSize(addr any) (unsafe.Pointer, uintptr) {
	p := dataPtr(addr)
	if p == nil {
		return nil, 0
	}
	if t := reflect.TypeOf(addr); t.Kind() == reflect.Pointer {
		return p, t.Elem().Size()
	}
	return p, 1
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
// raceReleaseMerge) are in detector.go and detector_edges.go.
