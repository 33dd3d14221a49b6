package runtime

import (
	"math"
	"reflect"
	goruntime "runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// State signatures, for the strategies that match states
// (strategies.WantStates: dpor --states). At every goroutine point the
// runtime hashes what it knows of the program's state:
//
//   - each goroutine: whether it can run, is blocked or has exited, the
//     operation it is at, the call sites of its stack there, how many steps
//     it has taken, the number of the object its operation is on, and what
//     it learnt (observed): the state of what its steps read, the cases
//     and values decided for it, where the sources it drew from stood;
//   - each object an operation has named, under a name that does not
//     depend on the order of independent steps: the sum of a hash of
//     (goroutine, its step, position in the step's event) over the steps
//     whose event named it; its state: the bytes of a variable (Load, Store,
//     Read, Write, atomics; a map's entries), a channel's buffered values
//     (hashes of their bytes, in order), whether it is closed and who waits
//     on it, a mutex's holder and waiters, an RWMutex's readers and writer,
//     a WaitGroup's counter, a Once's state, a Cond's waiters, a timer;
//   - the virtual clock and its pending timers, where the random source and
//     the map orders stand, and whether the test function has returned.
//
// Equal states have equal signatures. The converse holds only as far as
// the runtime can see: the goroutines' locals are covered through what
// they learnt (a local derives from what its goroutine read), but memory
// no hook touched is not, and values are hashed by their bytes (two equal
// strings at different addresses differ; two unequal structs behind one
// pointer do not, unless a hook read them). A strategy that takes equal
// signatures for equal states is therefore unsound wherever the signature
// is not the whole state; see docs/strategies.md. An execution in which
// uncontrolled code ran has no signature (0) from then on.

// stKind is what kind of object a numbered object is.
type stKind uint8

const (
	stNone stKind = iota
	stMem
	stMap
	stChan
	stMutex
	stRW
	stWG
	stOnce
	stCond
	stTimer
)

// stObj is an object the signature covers.
type stObj struct {
	kind stKind
	p    unsafe.Pointer
	size uintptr
	m    any    // stMap: the map
	name uint64 // see mention
	// part is the object's part of the signature when it was last
	// computed; dirty says it must be computed again.
	part  uint64
	dirty bool
}

// stTracker knows the objects of an execution that events named. The
// objects' part of the signature is kept up to date incrementally: an
// object changes only in a step whose event names it (or at a barrier),
// so only the objects of the step last chosen, and those whose name
// changed, are hashed again.
type stTracker struct {
	ords  rmap[uintptr, int32] // object -> 1 + index in objs
	objs  []stObj
	sum   uint64  // sum of the parts of the objects not dirty
	dirty []int32 // indices of the dirty objects
	all   bool    // every object is dirty (the clock moved)
}

// touch marks object i dirty. Lock held.
//
//go:norace
func (t *stTracker) touch(i int32) {
	o := &t.objs[i]
	if o.dirty {
		return
	}
	o.dirty = true
	t.sum -= o.part
	t.dirty = append(t.dirty, i)
}

// touchAcc marks the objects of accesses dirty. Lock held.
//
//go:norace
func (t *stTracker) touchAcc(acc []strategies.Access) {
	for _, a := range acc {
		if o := t.ords.get(a.Obj); o != 0 {
			t.touch(o - 1)
		}
	}
}

// note registers the object at p the first time it is named. Lock held.
//
//go:norace
func (ev *eventLog) note(kind stKind, p unsafe.Pointer, size uintptr) {
	if ev.st.ords.get(uintptr(p)) != 0 {
		return
	}
	ev.st.objs = append(ev.st.objs, stObj{kind: kind, p: p, size: size, dirty: true})
	ev.st.ords.put(uintptr(p), int32(len(ev.st.objs)))
	ev.st.dirty = append(ev.st.dirty, int32(len(ev.st.objs)-1))
}

// mention adds to the names of the objects of g's pending step (acc, just
// described) the first time that step is described: an object's name is
// the sum, over the steps whose event named it, of a hash of the
// goroutine, the step's index among the goroutine's and the access's
// index in the event. Schedules that reach one state by different orders
// of independent steps give every object the same name, which numbering
// objects as they were first named would not. Lock held.
//
//go:norace
func (ev *eventLog) mention(g *goroutine, acc []strategies.Access) {
	k := g.nsteps + 1
	if g.named == k {
		return
	}
	g.named = k
	for i, a := range acc {
		if o := ev.st.ords.get(a.Obj); o != 0 {
			ev.st.touch(o - 1)
			ev.st.objs[o-1].name += strategies.MentionHash(g.id, k, i)
		}
	}
}

// pushed notes a value entering cs's buffer, popped the head leaving it.
// Lock held.
//
//go:norace
func (ev *eventLog) pushed(cs *chanState, h uint64) {
	if ev.states {
		cs.vals = append(cs.vals, h)
	}
}

//go:norace
func (ev *eventLog) popped(cs *chanState) {
	if ev.states && len(cs.vals) > 0 {
		cs.vals = deleteAt(cs.vals, 0)
	}
}

// caseDone notes the buffer change of a select case that went through
// the real channel: the case's model updates the channel's state (in
// models) through the event log. Lock held.
//
//go:norace
func (ev *eventLog) caseDone(c Case, m *models) {
	if ev.states {
		c.buffered(ev, m.chanOf(c.key()))
	}
}

// nameOf is the name of the object at p, 0 if it has none.
//
//go:norace
func (ev *eventLog) nameOf(p unsafe.Pointer) uint64 {
	if o := ev.st.ords.get(uintptr(p)); o != 0 {
		return ev.st.objs[o-1].name
	}
	return 0
}

// stackHash hashes the call sites of the calling goroutine's stack.
//
//go:norace
func stackHash() uint64 {
	var pcs [16]uintptr
	n := goruntime.Callers(3, pcs[:])
	h := uint64(n)
	for _, pc := range pcs[:n] {
		h = mix(h, uint64(pc))
	}
	return h
}

// objHasher hashes the state of a numbered object: the object models and
// the clock hold it (objStates).
type objHasher interface {
	objHash(o *stObj) uint64
}

// objectsSum brings the objects' part of the signature up to date (the
// objects dirty, or all of them after a barrier) and returns it. Lock
// held.
//
//go:norace
func (t *stTracker) objectsSum(hs objHasher) uint64 {
	// Objects in any order: the sum does not depend on it.
	if t.all {
		t.all = false
		for i := range t.objs {
			t.touch(int32(i))
		}
	}
	for _, i := range t.dirty {
		o := &t.objs[i]
		o.part, o.dirty = mix(o.name, hs.objHash(o)), false
		t.sum += o.part
	}
	t.dirty = t.dirty[:0]
	return t.sum
}

// observed folds into g's history (goroutine.seen) what the step it was
// chosen for reads: the state of each object its event names, unless the
// operation only synchronizes (a Lock, an Unlock, a Wait, a Done: what
// they learn is that they happened, which the goroutine's steps and stack
// say). Two schedules that reach one signature by different values read
// (a value loaded into a local, a received one, a TryLock's result) would
// otherwise match, and the locals that differ decide what comes next.
// The objects' parts are those of the signature just computed. Lock held.
//
//go:norace
func (ev *eventLog) observed(g *goroutine, acc []strategies.Access) {
	if !g.ev.try {
		switch g.op {
		case opLock, opRWLock, opUnlock, opRWUnlock, opRLock, opRUnlock, opWaitGroup, opWait,
			opOnce, opCondWait, opSignal, opBroadcast, opWrite:
			return
		}
	}
	for _, a := range acc {
		if o := ev.st.ords.get(a.Obj); o != 0 {
			g.seen = mix(g.seen, ev.st.objs[o-1].part)
		}
	}
}

// learnt folds a value decided or drawn for g into its history. Lock
// held.
//
//go:norace
func (ev *eventLog) learnt(g *goroutine, v uint64) {
	if ev.states && g != nil {
		g.seen = mix(g.seen+1, v)
	}
}

//go:norace
func gid(g *goroutine) uint64 {
	if g == nil {
		return 1 << 40
	}
	return uint64(g.id)
}

//go:norace
func mutexHash(st *mutexState) uint64 {
	h := uint64(0)
	if st.locked {
		h = mix(1, gid(st.holder))
	}
	return mix(h, idSetHash(st.waiters))
}

// idSetHash hashes a set of goroutines (order-independent).
//
//go:norace
func idSetHash(gs []*goroutine) uint64 {
	var sum uint64
	for _, g := range gs {
		sum += mix(0x9e3779b97f4a7c15, uint64(g.id))
	}
	return mix(uint64(len(gs)), sum)
}

// waitqHash hashes the waiters of a channel queue, in order. Waiters gone
// stale (their select fired on another channel) count until they are
// removed, by an operation on the channel or by their goroutine's next
// step, both of which name the channel: the hash changes only in steps
// that name it (see stTracker).
//
//go:norace
func waitqHash(q waitq) uint64 {
	h := uint64(0)
	for _, w := range q {
		h = mix(h, uint64(w.g.id)<<16|uint64(w.idx+1))
	}
	return h
}

// mix combines x into the hash h.
//
//go:norace
func mix(h, x uint64) uint64 {
	h ^= x + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>31
}

// hashMem hashes n bytes at p.
//
//go:norace
func hashMem(p unsafe.Pointer, n uintptr) uint64 {
	h := uint64(n)
	i := uintptr(0)
	for ; i+8 <= n; i += 8 {
		h = mix(h, *(*uint64)(unsafe.Add(p, i)))
	}
	for ; i < n; i++ {
		h = mix(h, uint64(*(*byte)(unsafe.Add(p, i))))
	}
	return h
}

// valueHash hashes a value of a channel's element type by its bytes.
//
//go:norace
func valueHash[E any](v *E) uint64 { return hashMem(unsafe.Pointer(v), unsafe.Sizeof(*v)) }

// hashValue hashes v by content, following maps, structs and arrays a few
// levels deep; pointers by address.
//
//go:norace
func hashValue(v reflect.Value, depth int) uint64 {
	if !v.IsValid() {
		return 0
	}
	h := uint64(v.Kind())
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return mix(h, 1)
		}
		return h
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return mix(h, uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return mix(h, v.Uint())
	case reflect.Float32, reflect.Float64:
		return mix(h, math.Float64bits(v.Float()))
	case reflect.String:
		s := v.String()
		return mix(h, hashMem(unsafe.Pointer(unsafe.StringData(s)), uintptr(len(s))))
	case reflect.Map:
		if depth > 0 {
			return mix(h, uint64(v.Pointer()))
		}
		var sum uint64
		it := v.MapRange()
		for it.Next() {
			sum += mix(hashValue(it.Key(), depth+1), hashValue(it.Value(), depth+1))
		}
		return mix(mix(h, uint64(v.Len())), sum)
	case reflect.Struct:
		if depth > 3 {
			return h
		}
		for i := 0; i < v.NumField(); i++ {
			h = mix(h, hashValue(v.Field(i), depth+1))
		}
		return h
	case reflect.Array:
		if depth > 3 {
			return h
		}
		for i := 0; i < v.Len() && i < 64; i++ {
			h = mix(h, hashValue(v.Index(i), depth+1))
		}
		return h
	case reflect.Interface:
		if v.IsNil() {
			return h
		}
		return mix(h, hashValue(v.Elem(), depth))
	case reflect.Slice:
		return mix(mix(h, uint64(v.Len())), uint64(v.Pointer()))
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan, reflect.Func:
		return mix(h, uint64(v.Pointer()))
	}
	return h
}

// signature hashes the state of the execution (states.go); 0 when
// uncontrolled code ran. It reads every part: the goroutines, the sources,
// the objects (objs), the clock, and whether the test function returned.
// Lock held.
//
//go:norace
func (ev *eventLog) signature(uncontrolled bool, gs []*goroutine, in *programInputs, c *clock, objs objHasher, mainDone bool) uint64 {
	if uncontrolled {
		return 0
	}
	h := uint64(len(gs))
	for _, g := range gs {
		h = mix(h, uint64(g.state)<<8|uint64(g.op))
		if g.state == gDone {
			continue
		}
		h = mix(h, g.stack)
		h = mix(h, uint64(g.nsteps))
		h = mix(h, ev.nameOf(g.ev.obj))
		h = mix(h, g.seen)
	}
	// Where the random source and the map orders stand: the next draw.
	h = mix(h, in.src.s)
	h = mix(h, in.mapRanges)
	h = mix(h, ev.st.objectsSum(objs))
	h = mix(h, uint64(c.now))
	for _, t := range c.heap {
		h = mix(h, uint64(t.when-c.now))
		h = mix(h, uint64(t.kind)<<32|uint64(t.period))
		switch t.kind {
		case tkSleep:
			h = mix(h, uint64(t.g.id))
		case tkChan:
			h = mix(h, ev.nameOf(chanKey((<-chan time.Time)(t.ch))))
		}
	}
	if mainDone {
		h = mix(h, 1)
	}
	if h == 0 {
		h = 1
	}
	return h
}

// objStates is the objHasher of an execution: the object models hold the
// objects' states, the program's inputs the Onces done by earlier
// executions, and the clock the instant a timer's deadline is counted
// from.
type objStates struct {
	models *models
	fresh  *onceSet
	now    time.Duration
}

// objHash hashes the state of one numbered object, as the object models
// and the clock hold it. Lock held.
//
//go:norace
func (s objStates) objHash(o *stObj) uint64 {
	switch o.kind {
	case stMem:
		return hashMem(o.p, o.size)
	case stMap:
		if raceEnabled {
			return 0 // reading the map would be a race report (see mapHash)
		}
		return hashValue(reflect.ValueOf(o.m), 0)
	case stChan:
		cs := s.models.chans.get(o.p)
		if cs == nil {
			return 0
		}
		h := uint64(len(cs.vals))
		for _, v := range cs.vals {
			h = mix(h, v)
		}
		if cs.closed {
			h = mix(h, 1)
		}
		h = mix(h, waitqHash(cs.recvq))
		return mix(h, waitqHash(cs.sendq))
	case stMutex:
		return mutexHash(s.models.mutex((*sync.Mutex)(o.p)))
	case stRW:
		st := s.models.rw((*sync.RWMutex)(o.p))
		h := mix(mutexHash(&st.w), uint64(st.writer))
		h = mix(h, gid(st.wg))
		h = mix(h, idSetHash(st.readers))
		for _, w := range st.blocked {
			h = mix(h, uint64(w.g.id))
		}
		return h
	case stWG:
		st := s.models.wg((*sync.WaitGroup)(o.p))
		h := mix(uint64(st.n), uint64(len(st.waiters)))
		if st.zeroing {
			h = mix(h, 1)
		}
		return h
	case stOnce:
		// Not created here: creating a Once's state has effects (the
		// Onces carried between executions), and a Do not yet run has
		// the state the real Once says.
		st := s.models.onces.get((*sync.Once)(o.p))
		if st == nil {
			st = &onceState{}
			if realOnceDone((*sync.Once)(o.p)) && !s.fresh.has((*sync.Once)(o.p)) {
				st.state = onceDone
			}
		}
		return mix(mix(uint64(st.state), gid(st.runner)), idSetHash(st.waiters))
	case stCond:
		st := s.models.cond((*sync.Cond)(o.p))
		h := uint64(len(st.waiters))
		for _, w := range st.waiters {
			h = mix(h, uint64(w.g.id))
		}
		return h
	case stTimer:
		vt := (*vtimer)(o.p)
		h := mix(uint64(vt.when-s.now), uint64(vt.period))
		if vt.idx >= 0 {
			h = mix(h, 1)
		}
		if vt.fired {
			h = mix(h, 2)
		}
		return h
	}
	return 0
}
