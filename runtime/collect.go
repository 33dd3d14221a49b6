package runtime

import (
	"runtime"
	"runtime/debug"
	"unsafe"
	"weak"
)

// Collections the program asks for. The runtime keys what it knows of an
// object by the object's address: a mutex's model, the race detector's
// clock of an atomic variable and its shadow of a plain one, the number a
// detailed execution gives the object. It holds those addresses as
// pointers, so that the collector cannot free an object and give its
// address to a new one within the execution, whose state would then be
// the old one's (a new Once already done, a new variable racing with the
// dead one's accesses). But then nothing the execution touched is ever
// collected before it ends, and a test that drops an object and waits for
// its finalizer, its cleanup or a weak pointer to it (a cache that must
// not leak: runtime.GC in a loop until the cleanup ran) fails under gosct
// where it passes under go test.
//
// The rewritten runtime.GC and debug.FreeOSMemory hold those references
// by weak pointer for the length of the collection: an object nothing of
// the program references any more is collected, as go test collects it,
// and the runtime forgets its state before its address can be given
// again (no goroutine of the execution runs before the state is put
// back); the objects that live are held again as before. A collection
// the program does not ask for (the background one) still leaves them.

// GC is runtime.GC.
//
//go:norace
func GC() { collect(runtime.GC) }

// FreeOSMemory is debug.FreeOSMemory, which collects first.
//
//go:norace
func FreeOSMemory() { collect(debug.FreeOSMemory) }

//go:norace
func collect(gc func()) {
	e, me := enter()
	if e == nil || me == nil {
		gc()
		return
	}
	e.mu.Lock()
	var w weakening
	e.models.weaken(&w)
	e.race.hb.weaken(&w)
	e.stepLog.weaken(&w)
	e.ev.st.weaken(&w)
	e.fair.weaken(&w)
	for _, g := range e.gs {
		if g == me || g.state == gDone {
			// What its last operation touched; a goroutine that
			// waits or is about to act holds its object itself.
			g.ev.obj, g.ev.addr, g.ev.cases, g.opObj = nil, nil, nil, nil
		}
	}
	gc()
	w.restore()
	e.mu.Unlock()
}

// weakening holds the runtime's references to the program's objects by
// weak pointer while a collection runs.
type weakening struct {
	restores []func()
}

// after registers f, which puts the references weakened back, to run
// when the collection is over.
//
//go:norace
func (w *weakening) after(f func()) { w.restores = append(w.restores, f) }

//go:norace
func (w *weakening) restore() {
	for _, f := range w.restores {
		f()
	}
	w.restores = nil
}

// weakRef is a reference to the object at an address that does not keep
// it alive: by weak pointer where the collector manages the memory, and
// by pointer elsewhere (a stack, memory the program mapped itself), where
// an object's life is not the collector's to end.
type weakRef struct {
	w      weak.Pointer[byte]
	strong unsafe.Pointer
}

//go:norace
func weakenRef(p unsafe.Pointer) weakRef {
	if p == nil || !collected(p) {
		return weakRef{strong: p}
	}
	return weakRef{w: weak.Make((*byte)(p))}
}

// value is the address again, or nil if its object was collected.
//
//go:norace
func (r weakRef) value() unsafe.Pointer {
	if r.strong != nil {
		return r.strong
	}
	return unsafe.Pointer(r.w.Value())
}

// collected reports whether p points into memory the collector manages
// (the heap, a package's variables): weak.Make throws on any other
// address, where runtime.AddCleanup panics.
//
//go:norace
func collected(p unsafe.Pointer) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	runtime.AddCleanup((*byte)(p), func(struct{}) {}, struct{}{}).Stop()
	return true
}

// weakenTable empties m for the collection, and puts back the entries
// whose object lived after it (those of the others are forgotten). K is a
// pointer type.
//
//go:norace
func weakenTable[K comparable, V any](w *weakening, m *rmap[K, V]) {
	if m.len() == 0 {
		return
	}
	type held struct {
		r weakRef
		v V
	}
	hs := make([]held, 0, m.len())
	m.each(func(k K, v V) {
		hs = append(hs, held{weakenRef(*(*unsafe.Pointer)(unsafe.Pointer(&k))), v})
	})
	m.clear()
	w.after(func() {
		for _, h := range hs {
			if p := h.r.value(); p != nil {
				m.put(*(*K)(unsafe.Pointer(&p)), h.v)
			}
		}
	})
}

// weaken: the models of the objects collected are forgotten; none has a
// waiter (a goroutine waiting on an object references it). Lock held.
//
//go:norace
func (m *models) weaken(w *weakening) {
	weakenTable(w, &m.chans)
	weakenTable(w, &m.mutexes)
	weakenTable(w, &m.rws)
	weakenTable(w, &m.wgs)
	weakenTable(w, &m.onces)
	weakenTable(w, &m.conds)
}

// weaken: a collected object's number is not given to the object that
// takes its address (numbers only grow). Lock held.
//
//go:norace
func (l *stepLog) weaken(w *weakening) { weakenTable(w, &l.objs) }

//go:norace
func (f *fairness) weaken(w *weakening) { weakenTable(w, &f.reads) }

// weaken: a collected object no longer counts in the signature (no step
// can name it again), and the object that takes its address is a new
// one. Lock held.
//
//go:norace
func (t *stTracker) weaken(w *weakening) {
	if len(t.objs) == 0 {
		return
	}
	type held struct {
		addr uintptr
		r    weakRef
	}
	hs := make([]held, len(t.objs))
	for i := range t.objs {
		o := &t.objs[i]
		hs[i] = held{uintptr(o.p), weakenRef(o.p)}
		o.p = nil
		if o.m != nil {
			// A map's interface holds the map's pointer, o.p, as its
			// data word: only that word goes.
			(*[2]unsafe.Pointer)(unsafe.Pointer(&o.m))[1] = nil
		}
	}
	w.after(func() {
		for i, h := range hs {
			o := &t.objs[i]
			p := h.r.value()
			if p == nil && h.addr != 0 {
				t.ords.put(h.addr, 0)
				o.kind = stNone
				t.touch(int32(i))
			}
			o.p = p
			if o.m != nil {
				(*[2]unsafe.Pointer)(unsafe.Pointer(&o.m))[1] = p
			}
		}
	})
}
