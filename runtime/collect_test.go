package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// gcObj has one of each kind of object the runtime keeps state of.
type gcObj struct {
	mu   sync.Mutex
	rw   sync.RWMutex
	wg   sync.WaitGroup
	once sync.Once
	cond *sync.Cond
	n    int64
	x    int
	ch   chan int
	m    map[int]int
	big  [4096]byte
}

// dropped runs op on a new gcObj, drops it, and reports whether the
// rewritten runtime.GC collects it, in at most ten collections.
func dropped(op func(o *gcObj)) bool {
	var cleaned atomic.Bool
	func() {
		o := &gcObj{ch: make(chan int, 1), m: map[int]int{}}
		o.cond = sync.NewCond(&o.mu)
		op(o)
		goruntime.AddCleanup(o, func(c *atomic.Bool) { c.Store(true) }, &cleaned)
	}()
	for i := 0; i < 10 && !cleaned.Load(); i++ {
		GC()
		Sleep(time.Millisecond)
		for j := 0; j < 100 && !cleaned.Load(); j++ {
			goruntime.Gosched() // the cleanup's goroutine
		}
	}
	return cleaned.Load()
}

// TestCollectDropped: an object the program dropped is collected by the
// collection it asks for, whatever it did with the object before: the
// runtime's state of the object (its mutex's model, the detector's
// clocks and shadow, the steps' numbering) does not keep it alive.
func TestCollectDropped(t *testing.T) {
	ops := map[string]func(o *gcObj){
		"nothing": func(o *gcObj) {},
		"lock":    func(o *gcObj) { Lock(&o.mu); Unlock(&o.mu) },
		"rlock":   func(o *gcObj) { RLock(&o.rw); RUnlock(&o.rw) },
		"wlock":   func(o *gcObj) { RWLock(&o.rw); RWUnlock(&o.rw) },
		"wg":      func(o *gcObj) { Add(&o.wg, 1); Done(&o.wg); Wait(&o.wg) },
		"once":    func(o *gcObj) { Do(&o.once, func() {}) },
		"signal":  func(o *gcObj) { Lock(&o.mu); Signal(o.cond); Unlock(&o.mu) },
		"atomic":  func(o *gcObj) { Then(Atomic(&o.n), atomic.AddInt64(&o.n, 1)) },
		"store":   func(o *gcObj) { AtomicStore(&o.n); atomic.StoreInt64(&o.n, 1) },
		"load":    func(o *gcObj) { Then(AtomicLoad(&o.n), atomic.LoadInt64(&o.n)) },
		"write":   func(o *gcObj) { Store(&o.x, 1) },
		"read":    func(o *gcObj) { _ = Load(&o.x) },
		"copy":    func(o *gcObj) { Copy(o.big[:], make([]byte, len(o.big)), nil) },
		"chan":    func(o *gcObj) { Send(o.ch, 1); Recv(o.ch); Close(o.ch) },
		"go": func(o *gcObj) {
			d := make(chan struct{})
			Go(func() { Lock(&o.mu); Store(&o.x, 2); Unlock(&o.mu); Close(d) })
			Recv(d)
		},
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			collected := 0
			x := checkWith(t, "random", 3, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
				if dropped(op) {
					collected++
				}
			})
			if collected != x.schedules || x.schedules == 0 {
				t.Errorf("collected in %d of %d schedules", collected, x.schedules)
			}
		})
	}
}

// TestCollectForgets: the object that takes a collected object's address
// is a new one. The old one's mutex was left locked, its Once done, its
// word written by a goroutine the test never synchronizes with; the new
// one's mutex is free, its Once new, and its first write races with
// nothing.
func TestCollectForgets(t *testing.T) {
	reused := 0
	x := checkWith(t, "random", 10, func(s *settings) { s.races = racesReport }, func(t *testing.T) {
		objc, stop := make(chan *gcObj), make(chan struct{})
		Go(func() {
			o := Recv(objc)
			Store(&o.x, 1)
			Recv(stop)
		})
		var cleaned atomic.Bool
		var old uintptr
		func() {
			o := &gcObj{}
			Lock(&o.mu)
			Do(&o.once, func() {})
			Send(objc, o)
			old = uintptr(unsafe.Pointer(o))
			goruntime.AddCleanup(o, func(c *atomic.Bool) { c.Store(true) }, &cleaned)
		}()
		for i := 0; !cleaned.Load(); i++ {
			if i == 100 {
				t.Fatal("the object was not collected")
			}
			GC()
			Sleep(time.Millisecond) // the goroutine's write
			goruntime.Gosched()
		}
		var keep []*gcObj
		for range 100000 {
			o := &gcObj{}
			if uintptr(unsafe.Pointer(o)) != old {
				keep = append(keep, o)
				continue
			}
			reused++
			if !TryLock(&o.mu) {
				t.Error("the new mutex is locked")
			}
			ran := false
			Do(&o.once, func() { ran = true })
			if !ran {
				t.Error("the new Once is done")
			}
			Store(&o.x, 2)
			break
		}
		Close(stop)
		_ = keep
	})
	if x.bugs != 0 || reused == 0 {
		t.Errorf("%d bugs; the address was reused in %d of %d schedules", x.bugs, reused, x.schedules)
	}
}
