package runtime

import (
	"reflect"
	"unsafe"
)

// The channel model. A real channel is always underneath: its buffer holds
// the buffered values, so uncontrolled code (a library, len and cap) sees
// the channel as Go would show it, and a close is a real close. What the
// runtime adds are the wait queues: a controlled goroutine blocked on a
// channel waits in chanState, not in the Go runtime, so the scheduler knows
// it is blocked and what will wake it. As in Go (runtime/chan.go), queues
// are FIFO, a sender finding a waiting receiver hands its value over
// directly, and a receiver of a full buffered channel with waiting senders
// takes the head of the buffer and moves the first sender's value to its
// tail.
//
// A channel made outside instrumented code (ctx.Done(), a library's timer
// channel) may be changed by code the runtime does not see. Goroutines
// blocked on such a channel are polled: their operation is retried, without
// blocking, at every decision.

type chanState struct {
	recvq, sendq waitq
	closed       bool
	// vals hashes the buffered values in order, for state signatures
	// (kept only when they are wanted).
	vals []uint64
	// owned channels were made by instrumented code in this execution.
	owned bool
	// timer channels are a virtual timer's or ticker's C.
	timer bool
}

// waiter is a goroutine blocked in a channel operation, or one case of a
// blocked select.
type waiter struct {
	g   *goroutine
	sel *selectState // nil outside select
	idx int          // the case, in a select
	// elem points to the value to send, or where a received value goes.
	elem   unsafe.Pointer
	ok     bool // receive: a value (not a close) was received
	done   bool // the counterparty completed the operation
	closed bool // send: woken by close, must panic
}

// live reports whether w can still complete (its select has not fired).
//
//go:norace
func (w *waiter) live() bool { return !w.done && (w.sel == nil || w.sel.fired < 0) }

type waitq []*waiter

//go:norace
func (q *waitq) push(w *waiter) { *q = append(*q, w) }

// pop removes and returns the first live waiter, dropping stale ones.
//
//go:norace
func (q *waitq) pop() *waiter {
	for len(*q) > 0 {
		w := (*q)[0]
		(*q)[0] = nil
		if len(*q) == 1 {
			*q = (*q)[:0] // empty: its memory serves the next push
		} else {
			*q = (*q)[1:]
		}
		if w.live() {
			return w
		}
	}
	return nil
}

// first returns the first live waiter, leaving the queue as it is.
//
//go:norace
func (q *waitq) first() *waiter {
	for _, w := range *q {
		if w.live() {
			return w
		}
	}
	return nil
}

// peek reports whether a live waiter is queued.
//
//go:norace
func (q *waitq) peek() bool {
	for _, w := range *q {
		if w.live() {
			return true
		}
	}
	return false
}

//go:norace
func (q *waitq) remove(w *waiter) {
	for i, x := range *q {
		if x == w {
			*q = deleteAt(*q, i)
			return
		}
	}
}

// complete finishes w's operation on behalf of its goroutine. Lock held.
//
//go:norace
func (w *waiter) complete(s scheduler) {
	w.done = true
	if w.sel != nil {
		w.sel.fired = w.idx
	}
	s.ready(w.g)
}

// chanKey is the identity of a channel: its runtime pointer.
//
//go:norace
func chanKey[E any](c <-chan E) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&c)) }

//go:norace
func sendKey[E any](c chan<- E) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&c)) }

// chanOf returns the model of the channel k. Lock held.
//
//go:norace
func (m *models) chanOf(k unsafe.Pointer) *chanState {
	cs := m.chans.get(k)
	if cs == nil {
		cs = &chanState{}
		m.chans.put(k, cs)
	}
	return cs
}

// Chan marks a channel made by instrumented code: make(chan T, n) is
// rewritten to gosct.Chan(make(chan T, n)). Only the execution's own
// goroutines can change an owned channel, so its waiters need no polling.
//
//go:norace
func Chan[C ~chan E, E any](c C) C {
	e := active.Load()
	if e == nil {
		return c
	}
	e.mu.Lock()
	if !e.over {
		e.models.chanOf(chanKey((chan E)(c))).owned = true
	}
	e.mu.Unlock()
	return c
}

// trySend attempts a non-blocking send on the real channel. A send on a
// channel closed by uncontrolled code panics; the panic value is returned
// rather than raised, because the caller holds the runtime's lock.
//
//go:norace
func trySend[E any](c chan<- E, v E) (sent bool, p any) {
	defer func() {
		if r := recover(); r != nil {
			p = r
		}
	}()
	select {
	case c <- v:
		return true, nil
	default:
		return false, nil
	}
}

//go:norace
func tryRecv[E any](c <-chan E) (v E, ok, got bool) {
	select {
	case v, ok = <-c:
		return v, ok, true
	default:
		return v, false, false
	}
}

// Send sends v on c: the rewriting of c <- v.
//
//go:norace
func Send[E any](c chan<- E, v E) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opSend, evRecord{obj: sendKey(c)}) {
		c <- v
		return
	}
	me.opObj = sendKey(c)
	if c == nil {
		e.mu.Lock()
		e.block(me, "nil channel")
		c <- v // only when released: block forever, as Go does
		return
	}
	e.access(sendKey(c), 1, accRead|accCov, chanSendSite)
	e.mu.Lock()
	cs := e.models.chanOf(sendKey(c))
	for {
		if cs.closed {
			e.mu.Unlock()
			c <- v // the real channel is closed too: Go's own panic
		}
		if w := cs.recvq.pop(); w != nil {
			*(*E)(w.elem) = v
			w.ok = true
			e.race.transfer(me, w.g, sendKey(c), cap(c))
			w.complete(e)
			e.mu.Unlock()
			return
		}
		if sent, p := trySend(c, v); sent || p != nil {
			if sent {
				e.race.send(me, sendKey(c), cap(c))
				e.ev.pushed(cs, valueHash(&v))
			}
			e.mu.Unlock()
			if p != nil {
				panic(p)
			}
			return
		}
		op := &sendOp[E]{v: v, c: c, cs: cs, e: e, me: me}
		op.w = waiter{g: me, elem: unsafe.Pointer(&op.v)}
		w := &op.w
		cs.sendq.push(w)
		if !e.blockPoll(me, "", op, !cs.owned) {
			e.mu.Lock()
			cs.sendq.remove(w)
			e.mu.Unlock()
			c <- v
			return
		}
		e.mu.Lock()
		if w.closed {
			e.mu.Unlock()
			c <- v // closed while we waited: Go's own panic
		}
		if w.done {
			e.mu.Unlock()
			return
		}
		cs.sendq.remove(w)
	}
}

// Recv receives from c: the rewriting of <-c.
//
//go:norace
func Recv[E any](c <-chan E) E {
	v, _ := recv(c)
	return v
}

// Recv2 receives from c: the rewriting of v, ok := <-c.
//
//go:norace
func Recv2[E any](c <-chan E) (E, bool) { return recv(c) }

//go:norace
func recv[E any](c <-chan E) (E, bool) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opRecv, evRecord{obj: chanKey(c)}) {
		v, ok := <-c
		return v, ok
	}
	me.opObj = chanKey(c)
	if c == nil {
		e.mu.Lock()
		e.block(me, "nil channel")
		v, ok := <-c
		return v, ok
	}
	e.mu.Lock()
	cs := e.models.chanOf(chanKey(c))
	for {
		if v, ok, got := recvFromSender(e, cs, c); got {
			e.mu.Unlock()
			return v, ok
		}
		if v, ok, got := tryRecv(c); got {
			e.race.recv(me, chanKey(c), cap(c), ok)
			if ok {
				e.ev.popped(cs)
			}
			e.mu.Unlock()
			return v, ok
		}
		op := &recvOp[E]{c: c, cs: cs, e: e, me: me}
		op.w = waiter{g: me, elem: unsafe.Pointer(&op.v)}
		w := &op.w
		cs.recvq.push(w)
		if !e.blockPoll(me, "", op, !cs.owned) {
			e.mu.Lock()
			cs.recvq.remove(w)
			e.mu.Unlock()
			v, ok := <-c
			return v, ok
		}
		e.mu.Lock()
		if w.done {
			e.mu.Unlock()
			return op.v, w.ok
		}
		cs.recvq.remove(w)
	}
}

// sendOp is a blocked send of v on c, waiting in cs's queue (w), and its
// poller (blockPoll): one object per blocking send.
type sendOp[E any] struct {
	w  waiter
	v  E
	c  chan<- E
	cs *chanState
	e  *execution
	me *goroutine
}

//go:norace
func (o *sendOp[E]) poll() bool {
	if racePollSkip(o.cs.owned, len(o.c), cap(o.c)) {
		return false
	}
	tsanAbsorb(o.me)
	sent, p := trySend(o.c, o.v)
	if p != nil {
		o.w.closed = true
	}
	if sent {
		o.e.race.send(o.me, sendKey(o.c), cap(o.c))
		o.e.ev.pushed(o.cs, valueHash(&o.v))
	}
	if sent || p != nil {
		o.cs.sendq.remove(&o.w)
		o.w.done = true
		return true
	}
	return false
}

//go:norace
func (o *sendOp[E]) watch() *watch {
	return &watch{
		cases: []reflect.SelectCase{{Dir: reflect.SelectSend, Chan: reflect.ValueOf(o.c), Send: reflect.ValueOf(&o.v).Elem()}},
		fire:  o.fire,
	}
}

//go:norace
func (o *sendOp[E]) fire(int, reflect.Value, bool) {
	tsanAbsorb(o.me)
	o.e.race.send(o.me, sendKey(o.c), cap(o.c))
	o.cs.sendq.remove(&o.w)
	o.w.done = true
}

// recvOp is a blocked receive from c into v, waiting in cs's queue (w),
// and its poller (blockPoll).
type recvOp[E any] struct {
	w  waiter
	v  E
	c  <-chan E
	cs *chanState
	e  *execution
	me *goroutine
}

//go:norace
func (o *recvOp[E]) poll() bool {
	x, ok, got := tryRecv(o.c)
	if got {
		o.e.race.recv(o.me, chanKey(o.c), cap(o.c), ok)
		if ok {
			o.e.ev.popped(o.cs)
		}
		o.v, o.w.ok, o.w.done = x, ok, true
		o.cs.recvq.remove(&o.w)
	}
	return got
}

//go:norace
func (o *recvOp[E]) watch() *watch {
	return &watch{
		cases: []reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(o.c)}},
		fire:  o.fire,
	}
}

//go:norace
func (o *recvOp[E]) fire(_ int, x reflect.Value, ok bool) {
	o.e.race.recv(o.me, chanKey(o.c), cap(o.c), ok)
	if ok {
		reflect.ValueOf(&o.v).Elem().Set(x)
	}
	o.w.ok, o.w.done = ok, true
	o.cs.recvq.remove(&o.w)
}

// recvFromSender takes a value from the first waiting sender, if any.
// Lock held.
//
//go:norace
func recvFromSender[E any](e *execution, cs *chanState, c <-chan E) (v E, ok, got bool) {
	w := cs.sendq.pop()
	if w == nil {
		return v, false, false
	}
	sv := *(*E)(w.elem)
	me := e.cur.Load()
	if cap(c) > 0 {
		// The buffer is full: take its head, and the sender's value goes
		// to its tail.
		if x, okx, gotx := tryRecv(c); gotx {
			v, ok = x, okx
			e.race.recv(me, chanKey(c), cap(c), okx)
			e.ev.popped(cs)
			e.ev.pushed(cs, valueHash(&sv))
			tsanAbsorb(w.g) // before the real send that releases its value
			trySend((chan<- E)(bidi(c)), sv)
			tsanRelay(w.g) // its send completes after this receive
			e.race.send(w.g, chanKey(c), cap(c))
		} else {
			v, ok = sv, true
			e.race.transfer(w.g, me, chanKey(c), cap(c))
		}
	} else {
		v, ok = sv, true
		e.race.transfer(w.g, me, chanKey(c), cap(c))
	}
	w.complete(e)
	return v, ok, true
}

// bidi recovers the bidirectional channel behind a receive-only one: the
// runtime moves a blocked sender's value into the buffer, as Go does.
//
//go:norace
func bidi[E any](c <-chan E) chan E { return *(*chan E)(unsafe.Pointer(&c)) }

// A send reads its channel and a close writes it, for the race detector
// as for Go's: a send and a close that happens-before does not order
// race. Their sites have no position: the report takes it from the stack.
var (
	chanSendSite  = &Site{Expr: "a channel (send)"}
	chanCloseSite = &Site{Expr: "a channel (close)"}
)

// Close closes c: the rewriting of close(c).
//
//go:norace
func Close[E any](c chan<- E) {
	e, me := enter()
	if e == nil || !e.yieldEv(me, opClose, evRecord{obj: sendKey(c)}) || c == nil {
		close(c)
		return
	}
	e.access(sendKey(c), 1, accWrite|accCov, chanCloseSite)
	e.mu.Lock()
	cs := e.models.chanOf(sendKey(c))
	if cs.closed {
		e.mu.Unlock()
		close(c) // Go's own panic: close of closed channel
	}
	if p := tryClose(c); p != nil {
		e.mu.Unlock()
		panic(p)
	}
	cs.closed = true
	e.race.close(me, sendKey(c))
	for w := cs.recvq.pop(); w != nil; w = cs.recvq.pop() {
		var zero E
		*(*E)(w.elem) = zero
		w.ok = false
		e.race.recv(w.g, sendKey(c), cap(c), false)
		w.complete(e)
	}
	for w := cs.sendq.pop(); w != nil; w = cs.sendq.pop() {
		w.closed = true
		w.complete(e)
	}
	e.mu.Unlock()
}

//go:norace
func tryClose[E any](c chan<- E) (p any) {
	defer func() { p = recover() }()
	close(c)
	return nil
}

// Len is len(c) for a channel: a scheduling point, since it observes what
// other goroutines did.
//
//go:norace
func Len[E any](c <-chan E) int {
	if e, me := enter(); e != nil && e.yieldEv(me, opLen, evRecord{obj: chanKey(c)}) && e.models.syncTimerChan(&e.mu, chanKey(c)) {
		return 0
	}
	return len(c)
}

// Cap is cap(c) for a channel. Not a scheduling point (a capacity never
// changes).
//
//go:norace
func Cap[E any](c <-chan E) int {
	if e, _ := enter(); e != nil && e.models.syncTimerChan(&e.mu, chanKey(c)) {
		return 0
	}
	return cap(c)
}

// syncTimerChan reports whether k is a timer's channel under Go 1.23's
// rules, which look unbuffered (len and cap 0): the virtual one holds the
// value its timer sent, for the next receive only, in a buffer of one.
// It takes mu, the runtime's lock.
//
//go:norace
func (m *models) syncTimerChan(mu *rtMutex, k unsafe.Pointer) bool {
	if asyncTimerChans {
		return false
	}
	mu.Lock()
	cs := m.chans.get(k)
	timer := cs != nil && cs.timer
	mu.Unlock()
	return timer
}

// racePollSkip reports, under -race, that polling a send on a channel
// made by instrumented code cannot succeed (it is unbuffered or full,
// and only the model's goroutines use it: a receiver would have taken the
// value from the model's queue), so the real attempt, which Go's race
// detector records as a read of the channel by the polling goroutine
// (and reports against the blocked goroutine's later close), is not made.
// Without -race the attempt is made as before.
//
//go:norace
func racePollSkip(owned bool, n, c int) bool { return raceEnabled && owned && (c == 0 || n == c) }
