package runtime

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// Events: what each step does, for the strategies that reason about which
// steps commute (strategies.EventUser: dpor). A hook records the object of
// its operation on the goroutine before its scheduling point (yieldEv: two or
// three words, always), and only when the execution's strategy asked for
// events does choose turn the records of the enabled goroutines into
// strategies.Events. A goroutine blocked in an
// operation keeps its record, which describes the step that completes it
// once it is readied.
//
// A step can also do what its operation does not say, and those effects
// complete the event of the step in the next point's Last: the test
// function returned (which later calls through t observe), every
// goroutine was blocked and the clock moved (a barrier), uncontrolled code
// readied a goroutine or took the token (global).

// eventLog is what the runtime records of the steps for a strategy that
// reasons about them (strategies.EventUser: Point.Events, Point.Last,
// Point.State): the accesses of the choices' pending steps, the effects of
// the step running now, and, when states are wanted, the objects they name
// (st, states.go). It needs from the core only what its methods take: the
// point and the goroutines to describe, and whether an operation would
// only queue (queueing).
type eventLog struct {
	// on: the strategy asked for events (or states); states: for
	// Point.State too, and st numbers the objects.
	on, states bool
	st         stTracker
	// extra holds what the step running now did beyond its operation;
	// accs and ends back Point.Events.
	extra []strategies.Access
	accs  []strategies.Access
	ends  []int
}

// evRecord is what a goroutine's pending operation touches.
type evRecord struct {
	obj   unsafe.Pointer // the object (channel, mutex, variable, ...)
	size  uintptr        // bytes, for a memory access
	addr  any            // the object as the hook got it, when obj is not set
	cases []Case         // a select's cases
	try   bool           // TryLock and friends: never blocks
}

// testObj stands for the state of the test function (returned or not):
// the test goroutine's last step writes it, t.Log and friends read it.
var testObj byte

// addExtra adds an effect to the event of the step running now. Lock held.
//
//go:norace
func (ev *eventLog) addExtra(op strategies.AccessOp, obj unsafe.Pointer) {
	if ev.on {
		ev.extra = append(ev.extra, strategies.Access{Op: op, Obj: uintptr(obj)})
	}
	if ev.states && (op == strategies.OpBarrier || op == strategies.OpGlobal) {
		ev.st.all = true // the clock moved, or code we do not see ran
	}
}

// queueing is what describeChoices needs from the object models: whether
// a goroutine's pending operation would only queue it (onlyQueues).
type queueing interface {
	onlyQueues(g *goroutine) bool
}

// describeChoices fills pt.Events for the goroutines of pt.Choices (by id
// in gs). Lock held.
//
//go:norace
func (ev *eventLog) describeChoices(pt *strategies.Point, gs []*goroutine, q queueing) {
	ev.accs = ev.accs[:0]
	ends := ev.ends[:0]
	for _, id := range pt.Choices {
		start := len(ev.accs)
		if id == strategies.Clock {
			// A timer firing early (time.go) moves the clock, which
			// every step may read (time.Now is no scheduling point
			// and has no event), and may wake a sleeper, send on a
			// channel or start a goroutine, and which timer fires
			// is decided only as it fires (fireEarly, chooseTimer):
			// the firing conflicts with every step, which is sound
			// and coarser than strategies.Clock's relation.
			ev.accs = ev.acc(ev.accs, stNone, strategies.OpGlobal, unsafe.Pointer(&testObj), 0)
			ends = append(ends, len(ev.accs))
			continue
		}
		ev.accs = ev.describe(gs[id], ev.accs)
		if ev.states {
			ev.mention(gs[id], ev.accs[start:])
		}
		ends = append(ends, len(ev.accs))
	}
	ev.ends = ends
	pt.Events = pt.Events[:0]
	start := 0
	for i, end := range ends {
		pt.Events = append(pt.Events, strategies.Event{Acc: ev.accs[start:end:end], Blocks: pt.Choices[i] != strategies.Clock && q.onlyQueues(gs[pt.Choices[i]])})
		start = end
	}
}

// describe appends the accesses of g's pending step to dst. Lock held.
//
//go:norace
func (ev *eventLog) describe(g *goroutine, dst []strategies.Access) []strategies.Access {
	r := &g.ev
	if g.runJoin != nil {
		dst = ev.acc(dst, stNone, strategies.OpWrite, g.runJoin, 0)
	}
	switch g.op {
	case opStart:
		if g.adopted {
			dst = ev.acc(dst, stNone, strategies.OpGlobal, unsafe.Pointer(&testObj), 0)
		}
	case opSend:
		dst = ev.acc(dst, stChan, strategies.OpSend, r.obj, 0)
	case opRecv:
		dst = ev.acc(dst, stChan, strategies.OpRecv, r.obj, 0)
	case opClose:
		dst = ev.acc(dst, stChan, strategies.OpClose, r.obj, 0)
	case opLen:
		dst = ev.acc(dst, stChan, strategies.OpLen, r.obj, 0)
	case opSelect:
		for _, c := range r.cases {
			if !c.isNil() {
				dst = ev.acc(dst, stChan, strategies.OpSelect, c.key(), 0)
			}
		}
	case opLock:
		dst = ev.acc(dst, stMutex, strategies.OpLock, r.obj, 0)
	case opRWLock:
		dst = ev.acc(dst, stRW, strategies.OpLock, r.obj, 0)
	case opUnlock:
		dst = ev.acc(dst, stMutex, strategies.OpUnlock, r.obj, 0)
	case opRWUnlock:
		dst = ev.acc(dst, stRW, strategies.OpUnlock, r.obj, 0)
	case opRLock:
		dst = ev.acc(dst, stRW, strategies.OpRLock, r.obj, 0)
	case opRUnlock:
		dst = ev.acc(dst, stRW, strategies.OpRUnlock, r.obj, 0)
	case opWaitGroup:
		dst = ev.acc(dst, stWG, strategies.OpWGAdd, r.obj, 0)
	case opWait:
		dst = ev.acc(dst, stWG, strategies.OpWGWait, r.obj, 0)
	case opOnce:
		dst = ev.acc(dst, stOnce, strategies.OpOnce, r.obj, 0)
	case opCondWait, opSignal, opBroadcast:
		c := (*sync.Cond)(r.obj)
		dst = ev.acc(dst, stCond, eventOp(g.op), r.obj, 0)
		// Wait unlocks L (it relocks L in a step of its own, once
		// woken); a woken waiter queues on L. Neither acquires L, so
		// the access is an OpUnlock: an OpLock would count as the
		// goroutine's last acquisition and hide its real one from
		// dpor's lock races (a Lock before Wait racing another
		// goroutine's Lock: the lost signal).
		switch k, p := classify(c.L); k {
		case lkMutex:
			dst = ev.acc(dst, stMutex, strategies.OpUnlock, p, 0)
		case lkRW:
			dst = ev.acc(dst, stRW, strategies.OpUnlock, p, 0)
		case lkRead:
			dst = ev.acc(dst, stRW, strategies.OpRLock, p, 0)
		default:
			if g.op == opCondWait {
				dst = ev.acc(dst, stNone, strategies.OpGlobal, unsafe.Pointer(&testObj), 0)
			}
		}
	case opAtomic, opAtomicLoad, opRead, opWrite:
		p, size := r.obj, r.size
		if p == nil && r.addr != nil {
			p, size = dataPtr(r.addr), objSize(r.addr)
		}
		if size == 0 {
			size = 1
		}
		k := memKind(r.addr)
		dst = ev.acc(dst, k, eventOp(g.op), p, size)
		if k == stMap && ev.states {
			ev.st.objs[ev.st.ords.get(uintptr(p))-1].m = r.addr
		}
	case opTimer:
		vt := (*vtimer)(r.obj)
		dst = ev.acc(dst, stTimer, strategies.OpTimer, r.obj, 0)
		if vt != nil && vt.ch != nil {
			dst = ev.acc(dst, stChan, strategies.OpTimer, chanKey((<-chan time.Time)(vt.ch)), 0)
		}
	case opCancel, opUncontrolled, opRun, opNone, opNumGoroutine, opStack, opYield:
		// runtime.NumGoroutine and runtime.Stack observe every go
		// statement and exit. A yield (Gosched, Sleep(0)) must let
		// another goroutine run first: which one ran decides what the
		// yielder can do next,
		// so the step that returns from it commutes with nothing (as
		// an ordinary step, dpor and its sleep sets would take "its
		// step, then another's" for the reverse order, which the
		// forced switch makes impossible, and lose schedules).
		dst = ev.acc(dst, stNone, strategies.OpGlobal, unsafe.Pointer(&testObj), 0)
	}
	for _, o := range g.holds {
		dst = ev.acc(dst, stOnce, strategies.OpOnce, o, 0)
	}
	return dst
}

// acc appends an access to dst and, when states are wanted, numbers its
// object, of kind k (stNone: not part of the state).
//
//go:norace
func (ev *eventLog) acc(dst []strategies.Access, k stKind, op strategies.AccessOp, p unsafe.Pointer, size uintptr) []strategies.Access {
	if p == nil {
		return dst
	}
	if ev.states && k != stNone {
		ev.note(k, p, size)
	}
	return append(dst, strategies.Access{Op: op, Obj: uintptr(p), Size: size})
}

// memKind is the kind of the object of a memory access through addr.
//
//go:norace
func memKind(addr any) stKind {
	if addr != nil && reflect.TypeOf(addr).Kind() == reflect.Map {
		return stMap
	}
	return stMem
}

// eventOp maps the operations that have one abstract kind.
//
//go:norace
func eventOp(k opKind) strategies.AccessOp {
	switch k {
	case opCondWait:
		return strategies.OpCondWait
	case opSignal:
		return strategies.OpSignal
	case opBroadcast:
		return strategies.OpBroadcast
	case opAtomic:
		return strategies.OpAtomic
	case opAtomicLoad:
		return strategies.OpAtomicLoad
	case opRead:
		return strategies.OpRead
	}
	return strategies.OpWrite
}

// objSize is the size of what addr points to; 1 for a map or anything
// else that is one object.
//
//go:norace
func objSize(addr any) uintptr {
	t := reflect.TypeOf(addr)
	if t != nil && t.Kind() == reflect.Pointer {
		return t.Elem().Size()
	}
	return 1
}
