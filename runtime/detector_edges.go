package runtime

import "unsafe"

// The happens-before edges of Go's synchronization, for the detector
// (detector.go). Every function is called with the execution's lock
// held, by the goroutine that synchronizes or on behalf of one that is
// blocked (a sender completing a waiting receiver's operation moves the
// receiver's clock: the receiver does nothing in between). The runtime's
// own hand-offs (the token) create no edge.
//
// Releases merge into the object's clock rather than overwrite it: a
// merged clock holds only events that happened before some release of the
// object, so merging never orders two accesses Go leaves unordered along
// a mutex's chain, and it is what a Cond signalled twice, an RWMutex's
// readers or a WaitGroup's Done calls need.

// acquire: g's next events happen after every release on p.
//
//go:norace
func (d *detector) acquire(g *goroutine, p unsafe.Pointer) {
	if d.counting() {
		d.cov.sync(g, p, true)
	}
	if !d.on() || g == nil {
		return
	}
	if w := d.hb.syncs.get(p); w != nil {
		d.vc(g).join(w)
	}
}

// release: g's events so far happen before every later acquire on p.
//
//go:norace
func (d *detector) release(g *goroutine, p unsafe.Pointer) {
	if d.counting() {
		d.cov.sync(g, p, false)
	}
	if !d.on() || g == nil {
		return
	}
	h := &d.hb
	v := h.syncs.get(p)
	data, n := unsafe.SliceData(v), len(v)
	if v == nil {
		v = h.newClock()
	}
	v.join(*d.vc(g))
	if unsafe.SliceData(v) != data || len(v) != n {
		h.syncs.put(p, v)
	}
	d.tick(g)
}

// releaseStore: g's events so far, and only they, happen before every
// later acquire on p (an atomic store: a later load observes this
// store's value, not the earlier ones').
//
//go:norace
func (d *detector) releaseStore(g *goroutine, p unsafe.Pointer) {
	if !d.on() || g == nil {
		return
	}
	h := &d.hb
	v := h.syncs.get(p)
	if v == nil {
		v = h.newClock()
	}
	v.copyFrom(*d.vc(g))
	h.syncs.put(p, v)
	d.tick(g)
}

// fork: the go statement happens before the child's start.
//
//go:norace
func (d *detector) fork(parent, child *goroutine) {
	if !d.on() || parent == nil {
		return
	}
	pv := *d.vc(parent)
	cv := d.vc(child)
	cv.join(pv)
	d.tick(parent)
}

// forkFrom: a goroutine the runtime starts (an AfterFunc's f) starts
// after the releases on p (the AfterFunc call).
//
//go:norace
func (d *detector) forkFrom(child *goroutine, p unsafe.Pointer) {
	if !d.on() {
		return
	}
	d.acquire(child, p)
}

// joinAll orders g after every goroutine's events so far: g waited in
// uncontrolled code (testing's t.Run) for something the detector cannot
// see.
//
//go:norace
func (d *detector) joinAll(g *goroutine) {
	if !d.on() {
		return
	}
	d.vc(g).joinOwn(d.hb.vcs)
}

// chanHB is a channel's synchronization: the k-th receive completes after
// the k-th send, and the (k+C)-th send after the k-th receive, for a
// buffered channel of capacity C: one clock per buffer slot, sends and
// receives counted. An unbuffered channel's send and receive rendezvous.
type chanHB struct {
	sends, recvs uint64
	slots        []vclock
	closed       vclock
	sawClose     bool
}

//go:norace
func (d *detector) chanOf(k unsafe.Pointer, capacity int) *chanHB {
	h := &d.hb
	c := h.chans.get(k)
	if c == nil || (c.sends == 0 && c.recvs == 0 && capacity > len(c.slots)) {
		var closed vclock
		saw := false
		if c != nil {
			closed, saw = c.closed, c.sawClose
		}
		if capacity < 1 {
			capacity = 1
		}
		c = &chanHB{slots: make([]vclock, capacity), closed: closed, sawClose: saw}
		h.chans.put(k, c)
	}
	return c
}

// slotOp acquires then releases buffer slot i for g.
//
//go:norace
func (d *detector) slotOp(g *goroutine, c *chanHB, i uint64) {
	s := &c.slots[i%uint64(len(c.slots))]
	v := d.vc(g)
	v.join(*s)
	s.join(*v)
	d.tick(g)
}

// send: g's value entered the buffer of channel k.
//
//go:norace
func (d *detector) send(g *goroutine, k unsafe.Pointer, capacity int) {
	if d.counting() {
		d.cov.channel(g, k, true, false)
	}
	d.steps.noteObj(g, k)
	if !d.on() || g == nil {
		return
	}
	c := d.chanOf(k, capacity)
	d.slotOp(g, c, c.sends)
	c.sends++
}

// recv: g received from channel k; ok is false when it saw the close.
//
//go:norace
func (d *detector) recv(g *goroutine, k unsafe.Pointer, capacity int, ok bool) {
	if d.counting() {
		d.cov.channel(g, k, false, true)
	}
	tsanRelay(g) // received for g by another goroutine: a close, a poll
	d.steps.noteObj(g, k)
	if !d.on() || g == nil {
		return
	}
	c := d.chanOf(k, capacity)
	if !ok {
		if !c.sawClose && !d.ctxClosed(k, c) {
			// Closed by code the detector does not see (a library, a
			// context's parent that instrumented code did not make):
			// assume it synchronized with everything so far rather
			// than report a false race.
			d.joinAll(g)
		}
		d.vc(g).join(c.closed)
		return
	}
	if c.recvs >= c.sends {
		// A value sent by code the detector does not see (or by the
		// runtime: a timer's tick): as for an unseen close.
		d.joinAll(g)
	}
	d.slotOp(g, c, c.recvs)
	c.recvs++
}

// transfer: sender s's value went to receiver r directly (a waiting
// party). On an unbuffered channel each completes after the other began.
//
//go:norace
func (d *detector) transfer(s, r *goroutine, k unsafe.Pointer, capacity int) {
	if d.counting() {
		d.cov.channel(s, k, true, false)
	}
	if d.counting() {
		d.cov.channel(r, k, false, true)
	}
	// For Go's race detector both ways even when buffered: a direct
	// hand-off leaves no trace in the real buffer's slots, which is where
	// a later send would find the receive that must precede it. Ordering
	// the receive before this send too can hide a race, never invent one.
	tsanFlow(s, r)
	tsanFlow(r, s)
	d.steps.noteObj(s, k)
	d.steps.noteObj(r, k)
	if !d.on() || s == nil || r == nil {
		return
	}
	d.send(s, k, capacity)
	d.recv(r, k, capacity, true)
	if capacity == 0 {
		d.vc(s).join(*d.vc(r))
		d.tick(r)
	}
}

// close: g closed channel k.
//
//go:norace
func (d *detector) close(g *goroutine, k unsafe.Pointer) {
	if d.counting() {
		d.cov.channel(g, k, true, true)
	}
	d.steps.noteObj(g, k)
	d.cancel(g, k)
}

// cancel: g is about to cancel the context whose Done channel is k,
// which closes it (context.go's cancelling): a release, as a close.
//
//go:norace
func (d *detector) cancel(g *goroutine, k unsafe.Pointer) {
	if !d.on() || g == nil {
		return
	}
	c := d.chanOf(k, 0)
	c.sawClose = true
	c.closed.join(*d.vc(g))
	d.tick(g)
}

// ctxClosed finds the cancel that closed channel k (c its edges), the
// Done of a context instrumented code made, and makes c's close that
// cancel's release: k closed with no cancel of its own recorded, so an
// ancestor's cancel closed it. It walks up through contexts instrumented
// code made, each attached to its parent by the context package itself
// (the returned context is the child's parent), whose Done only a cancel
// of their own or their parent's closes; the nearest ancestor whose
// cancel was recorded is the one that closed k (a cancel closes only an
// open context, and an earlier cancel above it would have closed it
// first). It reports false, and leaves c as is, when the chain meets
// anything else: a deadline context (its expiry or its parent's news
// reach it through goroutines of the context package), a context made
// already closed (its maker closed it, after its parent's canceller), a
// parent made elsewhere or wrapped. Lock held.
//
//go:norace
func (d *detector) ctxClosed(k unsafe.Pointer, c *chanHB) bool {
	info := d.contexts.get(k)
	for n := 0; info != nil && n < 1<<16; n++ {
		if info.dc != nil || info.born || info.parentKey == nil {
			return false
		}
		p := d.contexts.get(info.parentKey)
		if p == nil || p.ctx != info.parent {
			return false
		}
		if pc := d.hb.chans.get(info.parentKey); pc != nil && pc.sawClose {
			c.sawClose = true
			c.closed.join(pc.closed)
			return true
		}
		info = p
	}
	return false
}

// selected records the edge of select case c, completed by g itself.
//
//go:norace
func (d *detector) selected(g *goroutine, c Case) {
	if h, ok := c.(interface {
		hb(*detector, *goroutine)
	}); ok {
		h.hb(d, g)
	}
}

//go:norace
func (r *RecvCase[E]) hb(d *detector, g *goroutine) {
	d.recv(g, chanKey(r.c), cap(r.c), r.OK)
}

//go:norace
func (s *SendCase[E]) hb(d *detector, g *goroutine) {
	d.send(g, sendKey(s.c), cap(s.c))
}

// timerKey is the sync object of an AfterFunc timer: its call happens
// before f starts.
//
//go:norace
func timerKey(vt *vtimer) unsafe.Pointer { return unsafe.Pointer(vt) }
