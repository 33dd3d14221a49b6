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
		if e.set.accessPoints && !e.yieldEv(me, opRead, evRecord{obj: unsafe.Pointer(p), size: unsafe.Sizeof(*p)}) {
			return *p
		}
		e.access(unsafe.Pointer(p), unsafe.Sizeof(*p), accRead|accCov, nil)
	}
	return *p
}

// LoadAt reads *p: the rewriting of a read of a shared variable, made at
// site s.
func LoadAt[T any](p *T, s *Site) T {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yieldEv(me, opRead, evRecord{obj: unsafe.Pointer(p), size: unsafe.Sizeof(*p)}) {
			return *p
		}
		e.access(unsafe.Pointer(p), unsafe.Sizeof(*p), accRead|accCov, s)
	}
	return *p
}

// Store writes v to *p: the rewriting of x = v for a shared variable
// (StoreAt with no site).
func Store[T any](p *T, v T) {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yieldEv(me, opWrite, evRecord{obj: unsafe.Pointer(p), size: unsafe.Sizeof(*p)}) {
			*p = v
			return
		}
		e.access(unsafe.Pointer(p), unsafe.Sizeof(*p), accWrite|accCov, nil)
	}
	*p = v
}

// StoreAt writes v to *p: the rewriting of x = v for a shared variable,
// made at site s.
func StoreAt[T any](p *T, v T, s *Site) {
	if e, me := enter(); e != nil {
		if e.set.accessPoints && !e.yieldEv(me, opWrite, evRecord{obj: unsafe.Pointer(p), size: unsafe.Sizeof(*p)}) {
			*p = v
			return
		}
		e.access(unsafe.Pointer(p), unsafe.Sizeof(*p), accWrite|accCov, s)
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
		if e.set.accessPoints && !e.yieldEv(me, opRead, evRecord{addr: addr}) {
			return Token{}
		}
		if e.race.on() {
			p, size := addrSize(addr)
			e.access(p, size, accRead|accCov, s)
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
		if e.set.accessPoints && !e.yieldEv(me, opWrite, evRecord{addr: addr}) {
			return Token{}
		}
		if e.race.on() {
			p, size := addrSize(addr)
			e.access(p, size, accWrite|accCov, s)
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

// shadowing is set while an execution whose detector runs is active:
// the test a shadow access makes first, inlined into the hooks, so that
// with races off (or outside an execution) a shadow access costs a load
// and a branch. A plain variable: it is set before the execution's
// goroutines start and cleared after they are done (the runtime's
// hand-offs order it), and a goroutine outside the execution that reads
// it stale only takes the slow path, which asks enter.
var shadowing bool

// shadowOn reports whether the detector runs.
//
//go:norace
func shadowOn() bool {
	e := active.Load()
	return e != nil && e.set.races != racesOff
}

// shadowExec is the execution the calling goroutine runs in, holding the
// token, if the detector runs.
//
//go:norace
func shadowExec() (*execution, bool) {
	if !shadowOn() {
		return nil, false
	}
	e, me := enter()
	return e, e != nil && me != nil
}

// shadow checks an access of kind to size bytes at p, made at site s by
// the calling goroutine, if it holds the token.
//
//go:noinline
//go:norace
func shadow(p unsafe.Pointer, size uintptr, kind uint8, s *Site) {
	if e, me := enter(); e != nil && me != nil {
		e.access(p, size, kind, s)
	}
}

// shadowAddr is shadow of the memory an access hook's addr names
// (addrSize).
//
//go:noinline
//go:norace
func shadowAddr(addr any, kind uint8, s *Site) {
	p, size := addrSize(addr)
	shadow(p, size, kind, s)
}

// ShadowLoad reads *p, a race-checked read at site s that is not a
// scheduling point.
func ShadowLoad[T any](p *T, s *Site) T {
	if shadowing {
		shadow(unsafe.Pointer(p), unsafe.Sizeof(*p), accRead, s)
	}
	return *p
}

// ShadowStore writes v to *p, a race-checked write at site s that is not
// a scheduling point.
func ShadowStore[T any](p *T, v T, s *Site) {
	if shadowing {
		shadow(unsafe.Pointer(p), unsafe.Sizeof(*p), accWrite, s)
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
	if shadowing {
		shadowAddr(addr, accRead, s)
	}
	return Token{}
}

// ShadowWrite tells the detector about a write the program makes
// implicitly (a range loop assigning its variables) or that is not worth
// a scheduling point.
//
//go:norace
func ShadowWrite(addr any, s *Site) Token {
	if shadowing {
		shadowAddr(addr, accWrite, s)
	}
	return Token{}
}

// ShadowMapRead returns the map m after a shadow-only read of it (len(m)).
//
//go:norace
func ShadowMapRead[M any](m M, s *Site) M {
	if shadowing {
		shadowAddr(any(m), accRead, s)
	}
	return m
}

// ShadowDeref returns p, after a shadow-only read of *p: the copy a
// value-receiver method called through a pointer makes (p.get()).
//
//go:norace
func ShadowDeref[T any](p *T, s *Site) *T {
	if p != nil && shadowing {
		shadow(unsafe.Pointer(p), unsafe.Sizeof(*p), accRead, s)
	}
	return p
}

// Copy is copy(dst, src), with shadow-only accesses of the ranges it
// writes and reads.
//
//go:norace
func Copy[E any](dst, src []E, s *Site) int {
	if n := min(len(dst), len(src)); n > 0 {
		if shadowing {
			size := uintptr(n) * unsafe.Sizeof(dst[0])
			shadow(unsafe.Pointer(unsafe.SliceData(src)), size, accRead, s)
			shadow(unsafe.Pointer(unsafe.SliceData(dst)), size, accWrite, s)
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
		if shadowing {
			shadow(unsafe.Pointer(unsafe.SliceData(dst)), uintptr(n), accWrite, s)
		}
	}
	return copy(dst, src)
}

// AppendTo returns s, after the shadow-only accesses that appending n
// elements to it makes: within its capacity, a write of the n elements
// past its length in the backing array, which other slices may share;
// beyond, a read of its elements, copied to a new array. The rewriting
// of append(s, x1, ..., xn) is append(gosct.AppendTo(s, n, site), x1,
// ..., xn).
//
//go:norace
func AppendTo[S ~[]E, E any](s S, n int, site *Site) S {
	if shadowing && n > 0 {
		var e E
		appendShadow(unsafe.Pointer(unsafe.SliceData(s)), len(s), cap(s), n, unsafe.Sizeof(e), site)
	}
	return s
}

// AppendSlice is append(s, t...), with the shadow-only accesses of
// AppendTo and a read of t's elements. Its append is the user's (not
// //go:norace: Go's detector sees it).
func AppendSlice[S ~[]E, E any](s S, t []E, site *Site) S {
	if shadowing && len(t) > 0 {
		var e E
		appendShadow(unsafe.Pointer(unsafe.SliceData(s)), len(s), cap(s), len(t), unsafe.Sizeof(e), site)
		shadow(unsafe.Pointer(unsafe.SliceData(t)), uintptr(len(t))*unsafe.Sizeof(e), accRead, site)
	}
	return append(s, t...)
}

// AppendString is append(s, t...) of a string's bytes, with the
// shadow-only accesses of AppendTo (a string's bytes never change).
func AppendString[S ~[]byte](s S, t string, site *Site) S {
	if shadowing && len(t) > 0 {
		appendShadow(unsafe.Pointer(unsafe.SliceData(s)), len(s), cap(s), len(t), 1, site)
	}
	return append(s, t...)
}

// appendShadow checks the accesses of appending n elements of size bytes
// to a slice of length l and capacity c whose array is at p.
//
//go:noinline
//go:norace
func appendShadow(p unsafe.Pointer, l, c, n int, size uintptr, site *Site) {
	switch {
	case l+n <= c:
		shadow(unsafe.Add(p, uintptr(l)*size), uintptr(n)*size, accWrite, site)
	case l > 0:
		shadow(p, uintptr(l)*size, accRead, site)
	}
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

// The detector's hooks are execution.access (sched.go) and the
// detector's edges (detector_edges.go).
