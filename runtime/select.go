package runtime

import (
	"reflect"
	"unsafe"
)

// selectState is shared by the waiters of one blocked select: the first
// case to complete fires, and the others go stale.
type selectState struct{ fired int }

// A Case is one case of a select statement, made by OnRecv or OnSend.
type Case interface {
	// isNil reports a nil channel: a case that is never ready.
	isNil() bool
	key() unsafe.Pointer
	// ready reports, from the model and the real buffer, whether the
	// case can proceed now. Lock held.
	ready(cs *chanState) bool
	// commit performs a ready case; false if it turned out not to be
	// (uncontrolled code got there first). Lock held.
	commit(e *execution, cs *chanState) (ok bool, panicVal any)
	// try attempts the operation on the real channel without blocking.
	try() (ok bool, panicVal any)
	// waiter makes the case's waiter for a blocked select.
	waiter(g *goroutine, s *selectState, idx int) *waiter
	// finish completes a case fired while blocked; recv cases copy ok.
	finish(w *waiter)
	isSend() bool
	// buffered notes, for state signatures, what a case that went
	// through the real channel did to its buffer. Lock held.
	buffered(ev *eventLog, cs *chanState)
	reflectCase() reflect.SelectCase
	setRecv(v reflect.Value, ok bool)
}

// RecvCase is a receive case: after Select returns its index, Value and OK
// hold what v, ok := <-c would.
type RecvCase[E any] struct {
	Value E
	OK    bool
	c     <-chan E
}

// OnRecv makes the case `case v, ok := <-c` of a select.
//
//go:norace
func OnRecv[E any](c <-chan E) *RecvCase[E] { return &RecvCase[E]{c: c} }

//go:norace
func (r *RecvCase[E]) isNil() bool { return r.c == nil }

//go:norace
func (r *RecvCase[E]) isSend() bool { return false }

//go:norace
func (r *RecvCase[E]) key() unsafe.Pointer { return chanKey(r.c) }

//go:norace
func (r *RecvCase[E]) ready(cs *chanState) bool {
	return cs.sendq.peek() || len(r.c) > 0 || cs.closed
}

//go:norace
func (r *RecvCase[E]) commit(e *execution, cs *chanState) (bool, any) {
	if v, ok, got := recvFromSender(e, cs, r.c); got {
		r.Value, r.OK = v, ok
		return true, nil
	}
	ok, p := r.try()
	if ok {
		e.race.selected(e.cur.Load(), r)
		e.ev.caseDone(r, &e.models)
	}
	return ok, p
}

//go:norace
func (r *RecvCase[E]) try() (bool, any) {
	v, ok, got := tryRecv(r.c)
	if got {
		r.Value, r.OK = v, ok
	}
	return got, nil
}

//go:norace
func (r *RecvCase[E]) waiter(g *goroutine, s *selectState, idx int) *waiter {
	return &waiter{g: g, sel: s, idx: idx, elem: unsafe.Pointer(&r.Value)}
}

//go:norace
func (r *RecvCase[E]) finish(w *waiter) { r.OK = w.ok }

//go:norace
func (r *RecvCase[E]) buffered(ev *eventLog, cs *chanState) {
	if r.OK {
		ev.popped(cs)
	}
}

//go:norace
func (r *RecvCase[E]) reflectCase() reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(r.c)}
}

//go:norace
func (r *RecvCase[E]) setRecv(v reflect.Value, ok bool) {
	r.OK = ok
	if ok {
		// Set, not v.Interface().(E): a nil interface value received on
		// a channel of an interface type would fail the assertion.
		reflect.ValueOf(&r.Value).Elem().Set(v)
	}
}

// SendCase is a send case.
type SendCase[E any] struct {
	c chan<- E
	v E
}

// OnSend makes the case `case c <- v` of a select; v is evaluated when the
// select statement is, as in Go.
//
//go:norace
func OnSend[E any](c chan<- E, v E) *SendCase[E] { return &SendCase[E]{c: c, v: v} }

//go:norace
func (s *SendCase[E]) isNil() bool { return s.c == nil }

//go:norace
func (s *SendCase[E]) isSend() bool { return true }

//go:norace
func (s *SendCase[E]) key() unsafe.Pointer { return sendKey(s.c) }

//go:norace
func (s *SendCase[E]) ready(cs *chanState) bool {
	return cs.recvq.peek() || (cap(s.c) > 0 && len(s.c) < cap(s.c)) || cs.closed
}

//go:norace
func (s *SendCase[E]) commit(e *execution, cs *chanState) (bool, any) {
	if cs.closed {
		_, p := trySend(s.c, s.v)
		return false, p
	}
	if w := cs.recvq.pop(); w != nil {
		*(*E)(w.elem) = s.v
		w.ok = true
		e.race.transfer(e.cur.Load(), w.g, sendKey(s.c), cap(s.c))
		w.complete(e)
		return true, nil
	}
	ok, p := s.try()
	if ok {
		e.race.selected(e.cur.Load(), s)
		e.ev.caseDone(s, &e.models)
	}
	return ok, p
}

//go:norace
func (s *SendCase[E]) try() (bool, any) { return trySend(s.c, s.v) }

//go:norace
func (s *SendCase[E]) waiter(g *goroutine, st *selectState, idx int) *waiter {
	return &waiter{g: g, sel: st, idx: idx, elem: unsafe.Pointer(&s.v)}
}

//go:norace
func (s *SendCase[E]) finish(w *waiter) {}

//go:norace
func (s *SendCase[E]) buffered(ev *eventLog, cs *chanState) { ev.pushed(cs, valueHash(&s.v)) }

//go:norace
func (s *SendCase[E]) reflectCase() reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(s.c), Send: reflect.ValueOf(&s.v).Elem()}
}

//go:norace
func (s *SendCase[E]) setRecv(reflect.Value, bool) {}

// Select runs a select statement over cases, in source order; it returns
// the index of the case that proceeded, or -1 for the default case
// (hasDefault). Select(false) with no cases blocks forever, as select {}
// does. When several cases are ready, which one fires is a decision of the
// strategy (Go chooses uniformly at random).
//
//go:norace
func Select(hasDefault bool, cases ...Case) int {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opSelect, evRecord{cases: cases}) {
		return selectReal(hasDefault, cases)
	}
	if e.race.on() {
		// Go's select reads the channel of each send case it polls
		// (racing with a close), as a send does.
		for _, c := range cases {
			if !c.isNil() && c.isSend() {
				e.access(c.key(), 1, accRead|accCov, chanSendSite)
			}
		}
	}
	e.mu.Lock()
	var ready []int
	for {
		ready = ready[:0]
		for i, c := range cases {
			if !c.isNil() && c.ready(e.models.chanOf(c.key())) {
				ready = append(ready, i)
			}
		}
		if len(ready) > 0 {
			i := e.chooseCase(me, ready)
			ok, p := cases[i].commit(e, e.models.chanOf(cases[i].key()))
			if p != nil {
				e.mu.Unlock()
				panic(p)
			}
			if ok {
				e.mu.Unlock()
				return i
			}
			continue
		}
		// Nothing is ready as far as the model knows; uncontrolled code
		// may have fed or closed a channel.
		for i, c := range cases {
			if c.isNil() {
				continue
			}
			ok, p := c.try()
			if p != nil {
				e.mu.Unlock()
				panic(p)
			}
			if ok {
				e.race.selected(me, c)
				e.ev.caseDone(c, &e.models)
				e.mu.Unlock()
				return i
			}
		}
		if hasDefault {
			e.mu.Unlock()
			return -1
		}
		st := &selectState{fired: -1}
		ws := make([]*waiter, len(cases))
		eager := false
		for i, c := range cases {
			if c.isNil() {
				continue
			}
			cs := e.models.chanOf(c.key())
			w := c.waiter(me, st, i)
			ws[i] = w
			if c.isSend() {
				cs.sendq.push(w)
			} else {
				cs.recvq.push(w)
			}
			eager = eager || !cs.owned
		}
		var polled any
		// Closures are compiled with race instrumentation even inside a
		// //go:norace function: the body is one.
		poll := func() bool { return pollSelect(e, me, cases, ws, st, &polled) }
		what := "select"
		if len(ws) == 0 || allNil(cases) {
			what = "select with no cases"
			poll = nil
		}
		watch := func() *watch {
			// The cases on channels of uncontrolled code: the model's
			// own channels cannot change while the execution is idle.
			w := &watch{}
			var idx []int
			for i, c := range cases {
				if !c.isNil() && !e.models.chanOf(c.key()).owned {
					w.cases = append(w.cases, c.reflectCase())
					idx = append(idx, i)
				}
			}
			w.fire = func(k int, v reflect.Value, ok bool) {
				i := idx[k]
				cases[i].setRecv(v, ok)
				e.race.selected(me, cases[i])
				st.fired = i
				ws[i].done = true
			}
			return w
		}
		var p poller
		if poll != nil {
			p = &funcPoller{poll, watch}
		}
		released := !e.blockPoll(me, what, p, eager)
		e.mu.Lock()
		for i, c := range cases {
			if ws[i] != nil {
				cs := e.models.chanOf(c.key())
				cs.sendq.remove(ws[i])
				cs.recvq.remove(ws[i])
			}
		}
		if released {
			e.mu.Unlock()
			return selectReal(hasDefault, cases)
		}
		if polled != nil {
			e.mu.Unlock()
			panic(polled)
		}
		if f := st.fired; f >= 0 {
			w := ws[f]
			if w.closed {
				e.mu.Unlock()
				_, p := cases[f].try() // closed: Go's own panic value
				panic(p)
			}
			cases[f].finish(w)
			e.mu.Unlock()
			return f
		}
	}
}

//go:norace
func allNil(cases []Case) bool {
	for _, c := range cases {
		if !c.isNil() {
			return false
		}
	}
	return true
}

// selectReal runs the select uncontrolled, through reflect.Select.
//
//go:norace
func selectReal(hasDefault bool, cases []Case) int {
	rc := make([]reflect.SelectCase, 0, len(cases)+1)
	for _, c := range cases {
		rc = append(rc, c.reflectCase())
	}
	if hasDefault {
		rc = append(rc, reflect.SelectCase{Dir: reflect.SelectDefault})
	}
	i, v, ok := reflect.Select(rc)
	if i == len(cases) {
		return -1
	}
	cases[i].setRecv(v, ok)
	return i
}

// pollSelect tries the cases of me's blocked select on the real channels,
// for a goroutine that polls on me's behalf. Lock held. Like the hooks, it
// records what it does for the race detector and the trail.
//
//go:norace
func pollSelect(e *execution, me *goroutine, cases []Case, ws []*waiter, st *selectState, polled *any) bool {
	for i, c := range cases {
		if c.isNil() {
			continue
		}
		if c.isSend() {
			if f, ok := c.(interface{ lenCap() (int, int) }); raceEnabled && ok {
				if n, cp := f.lenCap(); racePollSkip(e.models.chanOf(c.key()).owned, n, cp) {
					continue
				}
			}
			tsanAbsorb(me) // before the real send that releases me's value
		}
		ok, p := c.try()
		if ok {
			e.race.selected(me, c) // a receive relays what it acquired to me (detector.recv)
			e.ev.caseDone(c, &e.models)
		}
		if ok || p != nil {
			st.fired = i
			ws[i].done = true
			*polled = p
			return true
		}
	}
	return false
}

//go:norace
func (s *SendCase[E]) lenCap() (int, int) { return len(s.c), cap(s.c) }
