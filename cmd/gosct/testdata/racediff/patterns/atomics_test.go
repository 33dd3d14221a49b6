package patterns

import (
	"sync/atomic"
	"testing"
	"unsafe"
)

type stats struct {
	n    int64
	hits int32
	u    uint64
	flag uint32
	ptr  unsafe.Pointer
	up   uintptr
}

func TestAtomicAddVsIncrement(t *testing.T) {
	s := &stats{}
	race(func() {
		atomic.AddInt64(&s.n, 1)
	}, func() {
		s.n++
	})
}

func TestAtomicAddVsStructCopy(t *testing.T) {
	s := &stats{}
	race(func() {
		atomic.AddInt64(&s.n, 1)
	}, func() {
		c := *s
		_ = c
	})
}

func TestAtomicStoreInt32VsRead(t *testing.T) {
	s := &stats{}
	race(func() {
		atomic.StoreInt32(&s.hits, 1)
	}, func() {
		_ = s.hits
	})
}

func TestAtomicLoadVsWrite(t *testing.T) {
	s := &stats{}
	race(func() {
		_ = atomic.LoadUint64(&s.u)
	}, func() {
		s.u = 7
	})
}

func TestAtomicCASVsWrite(t *testing.T) {
	s := &stats{}
	race(func() {
		atomic.CompareAndSwapUint32(&s.flag, 0, 1)
	}, func() {
		s.flag = 2
	})
}

func TestAtomicSwapPointerVsRead(t *testing.T) {
	s := &stats{}
	x := 1
	race(func() {
		atomic.SwapPointer(&s.ptr, unsafe.Pointer(&x))
	}, func() {
		_ = s.ptr
	})
}

func TestAtomicUintptrVsWrite(t *testing.T) {
	s := &stats{}
	race(func() {
		atomic.AddUintptr(&s.up, 1)
	}, func() {
		s.up = 0
	})
}

func TestAtomicAndOrVsRead(t *testing.T) {
	s := &stats{}
	race(func() {
		atomic.OrUint32(&s.flag, 4)
	}, func() {
		_ = s.flag
	})
}

type typed struct {
	i32 atomic.Int32
	i64 atomic.Int64
	u32 atomic.Uint32
	u64 atomic.Uint64
	b   atomic.Bool
	p   atomic.Pointer[int]
	v   atomic.Value
	up  atomic.Uintptr
}

func TestAtomicInt32TypeVsCopy(t *testing.T) {
	s := &typed{}
	race(func() {
		s.i32.Add(1)
	}, func() {
		s.i32 = atomic.Int32{}
	})
}

func TestAtomicInt64TypeVsCopy(t *testing.T) {
	s := &typed{}
	race(func() {
		s.i64.Store(5)
	}, func() {
		s.i64 = atomic.Int64{}
	})
}

func TestAtomicUint32TypeVsStructCopy(t *testing.T) {
	s := &typed{}
	race(func() {
		s.u32.Add(1)
	}, func() {
		*s = typed{}
	})
}

func TestAtomicUint64TypeVsWrite(t *testing.T) {
	s := &typed{}
	race(func() {
		_ = s.u64.Load()
	}, func() {
		s.u64 = atomic.Uint64{}
	})
}

func TestAtomicBoolVsWrite(t *testing.T) {
	s := &typed{}
	race(func() {
		s.b.Store(true)
	}, func() {
		s.b = atomic.Bool{}
	})
}

func TestAtomicPointerVsWrite(t *testing.T) {
	s := &typed{}
	x := 3
	race(func() {
		s.p.Store(&x)
	}, func() {
		s.p = atomic.Pointer[int]{}
	})
}

func TestAtomicValueVsWrite(t *testing.T) {
	s := &typed{}
	race(func() {
		s.v.Store(1)
	}, func() {
		s.v = atomic.Value{}
	})
}

func TestAtomicUintptrTypeVsWrite(t *testing.T) {
	s := &typed{}
	race(func() {
		s.up.Add(1)
	}, func() {
		s.up = atomic.Uintptr{}
	})
}

// An 8-byte atomic over two 4-byte fields: the plain write of the second
// overlaps it.
func TestAtomicOverlappingWidths(t *testing.T) {
	var w struct{ lo, hi int32 }
	race(func() {
		atomic.AddInt64((*int64)(unsafe.Pointer(&w)), 1)
	}, func() {
		w.hi = 1
	})
}

// Atomic against atomic never races.
func TestAtomicAgainstAtomic(t *testing.T) {
	s := &stats{}
	race(func() {
		atomic.AddInt64(&s.n, 1)
	}, func() {
		atomic.AddInt64(&s.n, 1)
	})
}

// Plain accesses to neighbouring fields do not race.
func TestNeighbourFields(t *testing.T) {
	p := &pair{}
	race(func() {
		p.a = 1
	}, func() {
		p.b = 2
	})
}

// A store publishes what was written before it; a later store by
// another goroutine replaces it (no release sequence in Go's model).
func TestAtomicStoreDoesNotOrderEarlierStore(t *testing.T) {
	var flag int32
	x := 0
	done := make(chan bool)
	go func() {
		x = 1
		atomic.StoreInt32(&flag, 1)
		done <- true
	}()
	<-done
	atomic.StoreInt32(&flag, 2)
	go func() {
		if atomic.LoadInt32(&flag) == 2 {
			_ = x
		}
		done <- true
	}()
	<-done
}
