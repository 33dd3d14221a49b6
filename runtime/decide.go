package runtime

import (
	"reflect"
	"sync"
	"time"

	"github.com/gosct/gosct/replay"
	"github.com/gosct/gosct/strategies"
)

// The decision funnel: every decision of an execution (which goroutine
// steps, which select case fires, which value a small random draw takes,
// which of the timers due together fires first) is asked of the strategy,
// clamped and appended to the trail here, and nowhere else. The callers
// describe the point first (e.pt.Choices, and the kind's own Ops, Events,
// Last and State), then record what the choice did (the step log, what a
// goroutine learnt).

// timerOp names, in a detailed trail, the timer chosen to fire first among
// those due together. The strategy is not shown it (Point.Ops stays nil at
// a timer decision, so that a replay never compares it with a recorded
// operation): decide takes it as the operation to record instead.
//
//go:norace
func timerOp(i int) strategies.Op { return strategies.Op{Name: "timer " + itoa(i)} }

// decide asks the decision of kind whose choices e.pt.Choices holds (never
// empty), reached by the goroutine of id cur (strategies.Clock for a
// timer; -1 for the watchdog's goroutine decisions), which yielded if
// yield. It returns the index of the choice taken, and appends it to the
// trail. op, when not nil, is the operation the detailed trail records for
// the choice taken instead of e.pt.Ops's (timerOp). Lock held.
//
// The kinds differ where a strategy or the schedule depends on it:
//   - Events and Last describe a goroutine point; at the other kinds they
//     are cleared, so that a strategy never sees the previous goroutine
//     point's there (no strategy reads them at those kinds);
//   - Where (Locating) is set at goroutine points only;
//   - once the execution went fair (fair.go), a goroutine decision is the
//     fair choice's, unless the strategy follows a recorded schedule; a
//     case, value or timer decision is still asked of the strategy;
//   - the enabled goroutines are recorded for goroutine decisions only.
//
//go:norace
func (e *execution) decide(kind strategies.Kind, cur int, yield bool, op func(int) strategies.Op) int {
	e.pt.Kind = kind
	e.pt.Current = cur
	e.pt.Yield = yield
	e.pt.Where = nil
	if kind == strategies.Goroutine {
		if e.locate {
			e.pt.Where = &e.loc
		}
	} else if e.ev.on {
		e.pt.Events, e.pt.Last = e.pt.Events[:0], strategies.Event{}
	}
	var i int
	if kind != strategies.Goroutine || e.fair.since == 0 || following(e.strat) {
		i = e.strategyNext()
	} else {
		i = e.fair.choice(len(e.pt.Choices))
	}
	if i < 0 || i >= len(e.pt.Choices) {
		i = 0
	}
	e.trail = append(e.trail, decision{kind, int32(e.pt.Choices[i]), int32(cur), strategies.Preempts(&e.pt, i)})
	if e.set.detailed {
		var o strategies.Op
		if op != nil {
			o = op(i)
		} else {
			o = e.pt.Ops[i]
		}
		var enabled []int
		if kind == strategies.Goroutine {
			enabled = e.pt.Choices
		}
		e.stepLog.decided(o, enabled, len(e.trail))
	}
	return i
}

// chooseCase asks the strategy which of the ready select cases fires.
// Lock held.
//
//go:norace
func (e *execution) chooseCase(me *goroutine, ready []int) int {
	if len(ready) == 1 {
		return ready[0]
	}
	e.pt.Choices = e.pt.Choices[:0]
	for _, r := range ready {
		e.pt.Choices = append(e.pt.Choices, r)
	}
	e.pt.Ops = nil
	if e.set.detailed {
		for _, r := range ready {
			e.pt.Ops = append(e.pt.Ops, strategies.Op{Name: "select case " + itoa(r), Pos: me.where})
		}
	}
	i := e.decide(strategies.Case, me.id, false, nil)
	e.ev.learnt(me, uint64(ready[i]))
	if e.set.detailed {
		me.lastStep = e.stepLog.add(replay.Step{G: me.id, Op: e.pt.Ops[i].Name, Pos: me.where, Stack: e.stepLog.internStack(me.stackText)}, len(e.trail), e.gs)
	}
	return ready[i]
}

// chooseValue asks the strategy for the result of a small-range random
// draw of me, one of 0..n-1 (a decision of kind value); what names the
// draw ("rand.Intn(3)"). Lock held.
//
//go:norace
func (e *execution) chooseValue(me *goroutine, n int, what string) int {
	if n <= 1 {
		return 0
	}
	e.pt.Choices = e.pt.Choices[:0]
	for v := 0; v < n; v++ {
		e.pt.Choices = append(e.pt.Choices, v)
	}
	e.pt.Ops = nil
	var op strategies.Op
	if e.set.detailed {
		op = strategies.Op{Name: what, Pos: callerPos()}
		for v := 0; v < n; v++ {
			e.pt.Ops = append(e.pt.Ops, op)
		}
	}
	i := e.decide(strategies.Value, me.id, false, nil)
	e.ev.learnt(me, uint64(i))
	if e.set.detailed {
		e.stepLog.add(replay.Step{G: me.id, Op: what + " = " + itoa(i), Pos: op.Pos}, len(e.trail), e.gs)
	}
	e.progress.Add(1)
	return i
}

// chooseTimer asks the strategy which of n timers due at the same instant
// fires first: a Case decision whose Current is strategies.Clock. Lock
// held.
//
//go:norace
func (e *execution) chooseTimer(n int) int {
	e.pt.Choices = e.pt.Choices[:0]
	for i := 0; i < n; i++ {
		e.pt.Choices = append(e.pt.Choices, i)
	}
	e.pt.Ops = nil
	i := e.decide(strategies.Case, strategies.Clock, false, timerOp)
	if e.set.detailed {
		e.stepLog.add(replay.Step{G: -1, Op: "timer " + itoa(i) + " of " + itoa(n) + " due at the same instant fires first"}, len(e.trail), e.gs)
	}
	return i
}

// What a goroutine point tells a strategy beyond its choices reads every
// part of the execution: whether a pending operation only queues (the
// Blocks of Point.Events), and the signature of the state (Point.State).

// onlyQueues (queueing, for Event.Blocks) reports whether g's pending operation would block now with
// no effect but queueing g: a Lock of a held Mutex, a writer's Lock of an
// RWMutex another writer holds or waits for (not one that readers hold:
// that writer announces itself, and new readers then wait). Not when
// blocking would close a cycle of lock waits: that ends the execution
// with a deadlock (cycle.go), which running the others first can hide (a
// goroutine locking a mutex it holds, beside a test about to return).
// Lock held.
//
//go:norace
func (e *execution) onlyQueues(g *goroutine) bool {
	if g.ev.try {
		return false
	}
	var st *mutexState
	switch g.op {
	case opLock:
		st = e.models.mutexes.get((*sync.Mutex)(g.ev.obj))
	case opRWLock:
		if rw := e.models.rws.get((*sync.RWMutex)(g.ev.obj)); rw != nil {
			st = &rw.w
		}
	}
	if st == nil || !st.locked {
		return false
	}
	saved := g.lockWait
	g.lockWait = lockWait{m: st}
	cycle := findLockCycle(g) != nil
	g.lockWait = saved
	return !cycle
}

// signature hashes the state of the execution (states.go); 0 when
// uncontrolled code ran. It reads every part: the goroutines, the sources,
// the objects (objHash), the clock. Lock held.
//
//go:norace
func (e *execution) signature() uint64 {
	if e.uncontrolled || e.ndetached > 0 || e.eagerPollers > 0 {
		return 0
	}
	h := uint64(len(e.gs))
	for _, g := range e.gs {
		h = mix(h, uint64(g.state)<<8|uint64(g.op))
		if g.state == gDone {
			continue
		}
		h = mix(h, g.stack)
		h = mix(h, uint64(g.nsteps))
		h = mix(h, e.ev.nameOf(g.ev.obj))
		h = mix(h, g.seen)
	}
	// Where the random source and the map orders stand: the next draw.
	h = mix(h, e.in.src.s)
	h = mix(h, e.in.mapRanges)
	h = mix(h, e.ev.st.objectsSum(e))
	h = mix(h, uint64(e.clock.now))
	for _, t := range e.clock.heap {
		h = mix(h, uint64(t.when-e.clock.now))
		h = mix(h, uint64(t.kind)<<32|uint64(t.period))
		switch t.kind {
		case tkSleep:
			h = mix(h, uint64(t.g.id))
		case tkChan:
			h = mix(h, e.ev.nameOf(chanKey((<-chan time.Time)(t.ch))))
		}
	}
	if e.mainDone {
		h = mix(h, 1)
	}
	if h == 0 {
		h = 1
	}
	return h
}

// objHash hashes the state of one numbered object, as the object models
// and the clock hold it (objHasher). Lock held.
//
//go:norace
func (e *execution) objHash(o *stObj) uint64 {
	switch o.kind {
	case stMem:
		return hashMem(o.p, o.size)
	case stMap:
		if raceEnabled {
			return 0 // reading the map would be a race report (see mapHash)
		}
		return hashValue(reflect.ValueOf(o.m), 0)
	case stChan:
		cs := e.models.chans.get(o.p)
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
		return mutexHash(e.models.mutex((*sync.Mutex)(o.p)))
	case stRW:
		st := e.models.rw((*sync.RWMutex)(o.p))
		h := mix(mutexHash(&st.w), uint64(st.writer))
		h = mix(h, gid(st.wg))
		h = mix(h, idSetHash(st.readers))
		for _, w := range st.blocked {
			h = mix(h, uint64(w.g.id))
		}
		return h
	case stWG:
		st := e.models.wg((*sync.WaitGroup)(o.p))
		h := mix(uint64(st.n), uint64(len(st.waiters)))
		if st.zeroing {
			h = mix(h, 1)
		}
		return h
	case stOnce:
		// Not created here: creating a Once's state has effects (the
		// Onces carried between executions), and a Do not yet run has
		// the state the real Once says.
		st := e.models.onces.get((*sync.Once)(o.p))
		if st == nil {
			st = &onceState{}
			if realOnceDone((*sync.Once)(o.p)) && !e.in.fresh.has((*sync.Once)(o.p)) {
				st.state = onceDone
			}
		}
		return mix(mix(uint64(st.state), gid(st.runner)), idSetHash(st.waiters))
	case stCond:
		st := e.models.cond((*sync.Cond)(o.p))
		h := uint64(len(st.waiters))
		for _, w := range st.waiters {
			h = mix(h, uint64(w.g.id))
		}
		return h
	case stTimer:
		vt := (*vtimer)(o.p)
		h := mix(uint64(vt.when-e.clock.now), uint64(vt.period))
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
