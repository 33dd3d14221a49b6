package runtime

import (
	"reflect"
	"strings"
	"time"
)

// Waiting for uncontrolled code. When no controlled goroutine can run but
// something outside the runtime's control may still act (a goroutine is
// detached in uncontrolled code, or one waits on a channel uncontrolled
// code may feed), the execution is idle: the token is free, and the
// watchdog waits for the first of
//
//   - a detached goroutine coming back to a hook (foreign signals
//     e.comeback),
//   - a channel of uncontrolled code becoming ready: the watchdog performs
//     the blocked operation itself, in a real select over every such
//     operation (reflect.Select), and completes the waiter with the result
//     as its poll would have; meanwhile no goroutine may take the token,
//     so no other case of the same select can fire under it,
//   - a timer: the detached goroutines are looked at again (one started by
//     uncontrolled code may have ended there without a hook), and the
//     wait is bounded.
//
// The bounds, from the moment the execution became idle (settings):
//
//   - timerWait (the timer's distance, within [pollGrace, detachedGrace]):
//     a virtual timer that may make the clock jump is pending (not a tick
//     into a full buffer, which would be dropped) and a goroutine of the
//     test is at work in uncontrolled code; the time it takes is charged
//     when it comes back;
//   - pollGrace (30 ms): only channels of uncontrolled code are waited
//     for, or such a timer is pending otherwise (it fires then);
//   - detachedGrace (2 s): only goroutines started by uncontrolled code
//     are detached, or the test has returned and blocked goroutines may
//     yet be woken (then they are leaked), or goroutines of the test are
//     still at work in uncontrolled code;
//   - quietAfter (1 s): goroutines of the test are blocked in uncontrolled
//     code, and no goroutine of the whole process can move (all wait on
//     channels and locks, none runs, none is in a system call, in netpoll
//     or asleep): a deadlock, naming where they are;
//   - stuckAfter (10 s): otherwise, goroutines of the test are still in
//     uncontrolled code and nothing came back: the execution could not
//     complete. The test fails with an error naming where they are (not a
//     bug: gosct cannot tell whether uncontrolled code would ever have
//     moved), and its exploration stops.

// waitExternal decides whether the execution waits for uncontrolled code;
// if so it becomes idle (the watchdog waits) and waitExternal returns
// true. Lock held.
//
//go:norace
func (e *execution) waitExternal() bool {
	if e.ndetached == 0 && e.eagerPollers == 0 && e.subtests.pending == 0 {
		return false
	}
	if e.mainDone && len(blockedGoroutines(e.gs, false)) == 0 && e.workingDetached() == nil {
		// Nothing left that uncontrolled code could unblock, and no
		// goroutine of the test is still at work there (one that comes
		// back may yet block for ever: a leak).
		return false
	}
	now := time.Now()
	if e.idleSince.IsZero() {
		e.idleSince = now
	}
	limit := e.idleLimit()
	if now.Sub(e.idleSince) >= limit {
		return false
	}
	e.idleUntil = e.idleSince.Add(limit)
	e.cur.Store(nil)
	e.idle.Store(1)
	return true
}

// idleLimit is how long the execution may stay idle. Lock held.
//
//go:norace
func (e *execution) idleLimit() time.Duration {
	switch {
	case e.subtests.pending > 0:
		return e.set.stuckAfter // a subtest on its way
	case e.ndetached > 0 && e.clock.next(e) != nil && e.workingDetached() != nil:
		return e.timerWait()
	case e.ndetached == 0 || e.clock.next(e) != nil:
		return e.set.pollGrace
	case e.mainDone || e.ownDetached() == nil:
		return e.set.detachedGrace
	}
	return e.set.stuckAfter
}

// timerWait bounds the wait for goroutines of the test at work in
// uncontrolled code (a subprocess, a system call, a computation) while a
// timer is pending: the real time they take is charged to the clock when
// they come back (charge.go), so the timer fires first only if it is due
// before they are back, as in Go. A timeout of 10 s around a call that
// takes 100 ms then does not fire, and one of 20 ms around a subprocess of
// 80 ms does. The wait is the timer's distance in virtual time, at least
// pollGrace, at most detachedGrace: a goroutine stuck there for good does
// not hold the clock for ever. Lock held.
//
//go:norace
func (e *execution) timerWait() time.Duration {
	d := e.set.pollGrace
	if t := e.clock.next(e); t != nil {
		d = max(d, min(t.when-e.clock.now, e.set.detachedGrace))
	}
	return d
}

// workingDetached lists the goroutines of the test in uncontrolled code
// that are at work there: computing, in a system call (a subprocess's
// wait), asleep, or waiting for I/O (a request in flight), or in a state
// the runtime cannot read. One parked on a library's channel or lock is
// not waited for beyond the other bounds: nothing says it will come back.
// Lock held.
//
//go:norace
func (e *execution) workingDetached() []*goroutine {
	var gs []*goroutine
	for _, g := range e.ownDetached() {
		switch st, why := g.doing(); st {
		case runRunning, runSyscall, runUnknown, runTransient:
			gs = append(gs, g)
		case runBlocked:
			if why == "sleep" || why == "IO wait" {
				gs = append(gs, g)
			}
		}
	}
	return gs
}

// ownDetached lists the goroutines of the test (not adopted ones) in
// uncontrolled code. Lock held.
//
//go:norace
func (e *execution) ownDetached() []*goroutine {
	var gs []*goroutine
	for _, g := range e.gs {
		if g.state == gDetached && !g.adopted && !g.inRun {
			gs = append(gs, g)
		}
	}
	return gs
}

// reapDetached ends the detached goroutines that exited in uncontrolled
// code (started by it, they went back and ended without a hook). Lock held.
//
//go:norace
func (e *execution) reapDetached() {
	if e.ndetached == 0 {
		return
	}
	for _, g := range e.gs {
		if g.state == gDetached && g.adopted {
			if st, _ := g.doing(); st == runGone {
				e.setState(g, gDone)
			}
		}
	}
}

// A watch is a blocked operation on a channel uncontrolled code may change,
// as cases of the idle select; fire completes it with case i's result.
type watch struct {
	cases []reflect.SelectCase
	fire  func(i int, v reflect.Value, ok bool)
}

// idleWait is the watchdog's wait while the execution is idle.
//
//go:norace
func (e *execution) idleWait() {
	e.mu.Lock()
	if e.idle.Load() == 0 || e.over || e.aborting || e.cur.Load() != nil {
		e.idle.Store(0)
		e.mu.Unlock()
		return
	}
	if time.Now().After(e.idleUntil) {
		e.idleEnd()
		e.mu.Unlock()
		return
	}
	e.reapDetached()
	// The select: comeback, the timer, then every watched operation.
	cases := append(e.idleCases[:0],
		reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(e.comeback)},
		reflect.SelectCase{Dir: reflect.SelectRecv})
	owners := e.idleOwners[:0]
	for _, g := range e.gs {
		if g.state == gBlocked && g.watch != nil {
			w := g.watch()
			for i, c := range w.cases {
				cases = append(cases, c)
				owners = append(owners, idleOwner{w, g, i})
			}
		}
	}
	e.idleCases, e.idleOwners = cases, owners
	d := e.idleStep
	if d < 50*time.Microsecond {
		d = 50 * time.Microsecond
	}
	if left := time.Until(e.idleUntil); left < d {
		d = left
	}
	if e.ndetached == 0 && len(owners) > 0 {
		d = time.Until(e.idleUntil) // only channels: they signal themselves
	}
	e.idleStep = min(2*d, 2*time.Millisecond)
	t := time.NewTimer(d)
	cases[1].Chan = reflect.ValueOf(t.C)
	e.selecting = true
	e.mu.Unlock()

	i, v, ok, panicked := idleSelect(cases)
	t.Stop()

	e.mu.Lock()
	defer e.mu.Unlock()
	e.selecting = false
	for j := range e.idleCases {
		e.idleCases[j] = reflect.SelectCase{} // drop the references
	}
	if e.over || e.aborting {
		return
	}
	if i >= 2 && !panicked {
		o := owners[i-2]
		o.w.fire(o.index, v, ok)
		e.setRunnable(o.g)
		e.fedByUncontrolled(o.g)
		e.lastProgress = e.steps
	}
	for j := range e.idleOwners {
		e.idleOwners[j] = idleOwner{}
	}
	if i == 1 && e.cur.Load() == nil && e.idle.Load() != 0 && e.quietDeadlock() {
		return
	}
	if e.cur.Load() != nil || e.idle.Load() == 0 {
		return // a goroutine came back and took the token
	}
	e.idle.Store(0)
	if i != 1 {
		e.idleSince, e.idleStep = time.Time{}, 0 // something happened
	}
	e.handOff(nil)
}

// idleOwner maps a case of the idle select to its watch.
type idleOwner struct {
	w     *watch
	g     *goroutine
	index int
}

// idleSelect runs the idle select; a send on a channel that uncontrolled
// code closed panics, which the polls then see.
//
//go:norace
func idleSelect(cases []reflect.SelectCase) (i int, v reflect.Value, ok, panicked bool) {
	defer func() {
		if recover() != nil {
			i, panicked = -1, true
		}
	}()
	i, v, ok = reflect.Select(cases)
	return i, v, ok, false
}

// idleEnd ends an idle period that reached its bound: the scheduler goes
// on without waiting (the clock moves, or the execution ends). Lock held.
//
//go:norace
func (e *execution) idleEnd() {
	e.idle.Store(0)
	e.idleUntil = time.Time{}
	e.handOff(nil)
}

// quietDeadlock ends the execution with a deadlock when goroutines of the
// test have waited in uncontrolled code for quietAfter and nothing in the
// process could ever wake them: every other goroutine is the runtime's or
// testing's own, a leftover of an earlier execution, or waits where no
// timer, no I/O and no system call can end the wait (a lock, a wait group,
// a send, a nil channel). A goroutine waiting to receive or in a select
// may be waiting for a timer, and then the verdict is left to stuckAfter.
// Lock held.
//
//go:norace
func (e *execution) quietDeadlock() bool {
	if e.mainDone || time.Since(e.idleSince) < e.set.quietAfter || e.clock.pending() || e.eagerPollers > 0 ||
		time.Since(e.quietChecked) < e.set.quietAfter/4 {
		return false
	}
	e.quietChecked = time.Now()
	own := e.ownDetached()
	if len(own) == 0 {
		return false
	}
	for _, g := range own {
		if st, why := g.doing(); st != runBlocked || !syncWait(why) {
			return false
		}
	}
	ours := map[int64]bool{goid(): true}
	for _, g := range e.gs {
		ours[g.goid] = true
	}
	for _, pg := range processGoroutines() {
		if ours[pg.id] || isZombie(pg.id) || strings.HasPrefix(pg.fn, "testing.") || strings.HasPrefix(pg.fn, selfPkg) {
			continue
		}
		if !untimedWait(pg.state) {
			return false // it may yet do something
		}
	}
	e.idle.Store(0)
	e.abortLocked(nil, e.oracle.deadlock(e.gs))
	return true
}

// syncWait reports a wait that only another goroutine (or a timer) can
// end: on a channel or a lock, not on I/O, a sleep or a system call.
//
//go:norace
func syncWait(why string) bool {
	return strings.HasPrefix(why, "chan ") || strings.HasPrefix(why, "select") ||
		strings.HasPrefix(why, "sync.")
}

// untimedWait reports a wait that no timer can end either.
//
//go:norace
func untimedWait(why string) bool {
	return strings.HasPrefix(why, "sync.") || why == "chan send" ||
		strings.HasSuffix(why, "(nil chan)") || why == "select (no cases)"
}

// procG is a goroutine of the process as the traceback shows it: its
// state and the innermost function outside Go's runtime package.
type procG struct {
	id    int64
	state string
	fn    string
}

//go:norace
func processGoroutines() []procG {
	var out []procG
	for _, block := range strings.Split(string(tracebackAll()), "\n\n") {
		lines := strings.Split(block, "\n")
		if len(lines) == 0 || !strings.HasPrefix(lines[0], "goroutine ") {
			continue
		}
		for id, st := range parseHeader(lines[0]) {
			pg := procG{id: id, state: st}
			for _, l := range lines[1:] {
				if l == "" || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "runtime.") || strings.HasPrefix(l, "created by ") {
					continue
				}
				pg.fn = l
				break
			}
			out = append(out, pg)
		}
	}
	return out
}

// stuckBug is the verdict of an execution whose goroutines stayed in
// uncontrolled code past stuckAfter. Lock held.
//
//go:norace
func (e *execution) stuckBug(own []*goroutine) *bug {
	b := &bug{kind: kindStuck, gs: snapshot(e.liveGoroutines())}
	var where []string
	for i, s := range b.gs {
		if g := e.gs[s.id]; g.state == gDetached && !g.inRun {
			where = append(where, "G"+itoa(s.id)+" ("+s.created+") "+b.gs[i].state)
		}
	}
	b.message = "blocked in uncontrolled code for " + e.set.stuckAfter.String() + ": " + strings.Join(where, "; ")
	b.key = kindStuck + ":" + siteKey(b.gs)
	return b
}

// liveGoroutines lists the goroutines that have not exited. Lock held.
//
//go:norace
func (e *execution) liveGoroutines() []*goroutine {
	var gs []*goroutine
	for _, g := range e.gs {
		if g.state != gDone {
			gs = append(gs, g)
		}
	}
	return gs
}
