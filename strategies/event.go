package strategies

// Events: what a step does, for the strategies that reason about which
// steps commute (dpor). The runtime describes a step as the accesses it
// makes to objects other goroutines can see, each an abstract operation on
// an object identity; the dependency relation below says which pairs of
// steps may not be swapped. Strategies that do not implement EventUser
// never see events, and the runtime does not compute them for them.

// AccessOp is the abstract kind of an access. What matters to the dependency
// relation is only whether an operation observes its object (two observers
// of one object commute) or changes it (it conflicts with every other
// access to the object); the finer kinds say what the runtime saw.
type AccessOp uint8

const (
	// OpRead and OpWrite access shared memory: the bytes [Obj, Obj+Size).
	OpRead AccessOp = iota + 1
	OpWrite
	// OpAtomicLoad is an atomic load (or a sync.Map lookup) at Obj;
	// OpAtomic any other atomic operation (a failed CompareAndSwap only
	// reads, but which one fails is not known before it runs).
	OpAtomicLoad
	OpAtomic
	// Channel operations on the channel Obj. OpSelect is one case of a
	// select: a select step has one access per channel of its cases,
	// since which case fires depends on all of them. OpLen observes.
	OpSend
	OpRecv
	OpClose
	OpSelect
	OpLen
	// Mutex and the writer side of RWMutex (TryLock is OpLock).
	OpLock
	OpUnlock
	// The reader side of RWMutex: read locks commute with each other,
	// not with a writer's operations.
	OpRLock
	OpRUnlock
	// WaitGroup: Add and Done change the counter; Waits commute.
	OpWGAdd
	OpWGWait
	// OpOnce is Once.Do; also the end of the function a Once runs.
	OpOnce
	// Cond: Wait, Signal, Broadcast on the Cond Obj (with an access to
	// its Locker, when the runtime models it).
	OpCondWait
	OpSignal
	OpBroadcast
	// OpTimer stops or resets the timer Obj.
	OpTimer
	// OpGlobal depends on every step of every other goroutine: code the
	// runtime does not see ran (a call into uncontrolled code, a context
	// cancelled), or a goroutine joined from outside.
	OpGlobal
	// OpBarrier, in the completion of a step (Point.Last), says that after
	// the step no goroutine could run and the virtual clock moved: a
	// timer fired that no point chose. It conflicts with nothing itself;
	// dpor takes the firing as a step of the clock's (which conflicts
	// with every step, so every later step happens after every earlier
	// one).
	OpBarrier
)

var accessOpNames = [...]string{
	OpRead: "read", OpWrite: "write", OpAtomicLoad: "atomic load", OpAtomic: "atomic",
	OpSend: "send", OpRecv: "recv", OpClose: "close", OpSelect: "select", OpLen: "len",
	OpLock: "lock", OpUnlock: "unlock", OpRLock: "rlock", OpRUnlock: "runlock",
	OpWGAdd: "wg add", OpWGWait: "wg wait", OpOnce: "once",
	OpCondWait: "cond wait", OpSignal: "signal", OpBroadcast: "broadcast",
	OpTimer: "timer", OpGlobal: "global", OpBarrier: "barrier",
}

func (o AccessOp) String() string {
	if int(o) < len(accessOpNames) && accessOpNames[o] != "" {
		return accessOpNames[o]
	}
	return "op"
}

// observes reports whether o only looks at its object: two observers of
// one object commute. RLock and RUnlock commute with each other in the
// runtime's model (a read lock is a count; which reader blocks behind an
// announced writer does not depend on their order), and so do Waits.
func (o AccessOp) observes() bool {
	switch o {
	case OpRead, OpAtomicLoad, OpLen, OpRLock, OpRUnlock, OpWGWait:
		return true
	}
	return false
}

// An Access is one operation of a step on one object.
type Access struct {
	Op AccessOp
	// Obj identifies the object within one execution: the address of the
	// variable, channel, mutex... Identities are compared only between
	// steps of the same execution.
	Obj uintptr
	// Size is the number of bytes a memory access covers from Obj; other
	// objects count as one byte at their address, so that a write of a
	// struct conflicts with an operation on a mutex inside it.
	Size uintptr
}

// span is the byte range of a: [lo, hi).
func (a Access) span() (lo, hi uintptr) {
	n := a.Size
	if n == 0 {
		n = 1
	}
	return a.Obj, a.Obj + n
}

// conflicts reports whether a and b may not commute: they touch common
// bytes and one of them changes them, or one is global.
func (a Access) conflicts(b Access) bool {
	if a.Op == OpGlobal || b.Op == OpGlobal {
		return true
	}
	if a.Op == OpBarrier || b.Op == OpBarrier {
		return false
	}
	if a.Op.observes() && b.Op.observes() {
		return false
	}
	alo, ahi := a.span()
	blo, bhi := b.span()
	return alo < bhi && blo < ahi
}

// An Event is what one step of a goroutine does to objects other
// goroutines can see. A step is what a goroutine runs between two
// scheduling points: the operation it was chosen for, then code no other
// goroutine sees, up to its next operation. An event with no access is
// local: it commutes with every step of every other goroutine (a
// goroutine's first step, the point after a go statement, a yield).
type Event struct {
	Acc []Access
	// Blocks, in a pending event, says that choosing the goroutine now
	// would only queue it, with no other effect, until another step makes
	// the operation possible (a Lock of a mutex another goroutine holds).
	// dpor does not choose it while another goroutine can run: the step
	// that frees the mutex conflicts with it, and which goroutine then
	// takes the mutex is a race dpor reverses (as for locks in the
	// source-sets paper, where a lock is disabled while held).
	Blocks bool
}

// Dependent reports whether steps a and b of two different goroutines may
// not commute: executed in either order from one state they could lead to
// different states, or one could enable or disable the other. It is
// conservative: every pair of accesses to common bytes of which one is
// not an observation.
//
// The relation, by object:
//   - memory: reads commute; a write conflicts with any access to an
//     overlapping byte range (atomics likewise, a load being a read);
//   - channel: send, receive, close and every case of a select conflict;
//     len only observes;
//   - Mutex, and RWMutex's writer side: every operation conflicts (an
//     unlock enables a blocked lock, two locks exclude each other);
//     RLock and RUnlock commute with each other but not with Lock and
//     Unlock (Go's writer preference: an announced writer blocks new
//     readers);
//   - WaitGroup: Add and Done conflict with everything on it; Waits
//     commute with each other;
//   - Once, Cond (Wait also conflicts on its Locker, Signal and Broadcast
//     too since a woken waiter queues on it), timers: every operation
//     conflicts;
//   - a goroutine's first step depends only on the step that created it,
//     which the strategy knows as an order, not a conflict;
//   - a global step (uncontrolled code) conflicts with everything.
func Dependent(a, b *Event) bool {
	for _, x := range a.Acc {
		for _, y := range b.Acc {
			if x.conflicts(y) {
				return true
			}
		}
	}
	return false
}

// global reports whether ev conflicts with every other step.
func (ev *Event) global() bool {
	for _, a := range ev.Acc {
		if a.Op == OpGlobal {
			return true
		}
	}
	return false
}

// Wants says what an EventUser needs the runtime to compute.
type Wants uint8

const (
	// WantEvents: Point.Events and Point.Last at goroutine points, and
	// End.Last (EndExecution is called after every execution).
	WantEvents Wants = 1 << iota
	// WantStates: Point.State, a signature of the program state.
	WantStates
)

// An EventUser is a strategy that decides from what the steps do (dpor).
// Computing events costs the runtime a little at every point, so it does
// it only for the executions whose strategy asks.
type EventUser interface {
	Strategy
	// Wants is asked once per execution, after NewExecution prepared it.
	Wants() Wants
	// EndExecution is called when the execution ends, after its last
	// point, with the completion of its last step.
	EndExecution(end End)
}

// End describes how an execution ended, for an EventUser.
type End struct {
	// Last completes the event of the last step the strategy chose, as
	// Point.Last does for the others.
	Last Event
	// Unseen reports that some steps were decided without asking the
	// strategy (the runtime's fair scheduler took over a starving
	// schedule): the strategy does not know what they did.
	Unseen bool
	// Uncontrolled reports that code outside the runtime's control took
	// part in the execution (a goroutine it did not start, a call it
	// could not see into): its steps may not be what the events said.
	Uncontrolled bool
	// EarlyTimers reports that a timer could have fired early, at a
	// strategy's choice (the runtime's time model), and the strategy was
	// not offered the choice: the runtime withholds it from a strategy
	// that asks for positions (Locating) too, and the execution then
	// stands for the schedules where timers fire only when every
	// goroutine is blocked. An EventUser alone is offered Clock.
	EarlyTimers bool
	// Values reports that the program read a value no decision chose: a
	// draw of math/rand, math/rand/v2 or crypto/rand beyond the small
	// ranges that are decisions (Value), the order of a range over a
	// map beyond them, the clock (time.Now, whose origin is drawn from
	// the seed). A search over schedules does not vary it: its end is no
	// proof.
	Values bool
	// Cut reports that a bug ended the execution during its last step (a
	// panic, a fatal error, a race report, a lock cycle), not a deadlock
	// found when nothing could run: the step disabled every other
	// goroutine, and those still enabled never took their pending steps.
	Cut bool
}

// MentionHash is the part of an object's name (for state signatures) that
// step k of goroutine g contributes when the i-th access of its event names
// the object. The runtime and dpor name objects alike.
func MentionHash(g, k, i int) uint64 {
	h := uint64(g)*0x9e3779b97f4a7c15 + uint64(k)
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	h += uint64(i) * 0x94d049bb133111eb
	h ^= h >> 32
	return h | 1
}
