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
//     e.idle.comeback),
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

// idleState is the wait for uncontrolled code: whether the watchdog waits
// (the token free), the bounds of the wait, the cases of its select. It
// needs from the core the goroutines (their states, the channel
// operations they wait on) and the clock's pending timers; the core's lock
// guards it, and the core hands the token on when the wait ends
// (execution.idleWait).
type idleState struct {
	// waiting is set while the watchdog waits, selecting while it is
	// inside its select (a goroutine coming back then signals comeback
	// instead of taking the token).
	waiting   rtCounter
	selecting bool
	comeback  chan struct{}
	// since is when the execution became idle, until the bound of the
	// wait, step the watchdog's next nap.
	since time.Time
	until time.Time
	step  time.Duration
	// quietChecked is when quietDeadlock last read every goroutine's
	// state (a traceback of the process: not at every wake).
	quietChecked time.Time
	cases        []reflect.SelectCase
	owners       []idleOwner
}

// timerWait bounds the wait for goroutines of the test at work in
// uncontrolled code (a subprocess, a system call, a computation) while a
// timer is pending (next, the clock at now): the real time they take is
// charged to the clock when they come back (charge.go), so the timer fires
// first only if it is due before they are back, as in Go. A timeout of
// 10 s around a call that takes 100 ms then does not fire, and one of
// 20 ms around a subprocess of 80 ms does. The wait is the timer's
// distance in virtual time, at least pollGrace, at most detachedGrace: a
// goroutine stuck there for good does not hold the clock for ever. Lock
// held.
//
//go:norace
func timerWait(next *vtimer, now time.Duration, set *settings) time.Duration {
	d := set.pollGrace
	if t := next; t != nil {
		d = max(d, min(t.when-now, set.detachedGrace))
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
func workingDetached(all []*goroutine) []*goroutine {
	var gs []*goroutine
	for _, g := range ownDetached(all) {
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
func ownDetached(all []*goroutine) []*goroutine {
	var gs []*goroutine
	for _, g := range all {
		if g.state == gDetached && !g.adopted && !g.inRun {
			gs = append(gs, g)
		}
	}
	return gs
}

// A stateSetter moves a goroutine to another state (the core's
// setState).
type stateSetter interface {
	setState(g *goroutine, s gstate)
}

// reapDetached ends the detached goroutines that exited in uncontrolled
// code (started by it, they went back and ended without a hook); ndetached
// is how many are detached. Lock held.
//
//go:norace
func reapDetached(all []*goroutine, ndetached int, s stateSetter) {
	if ndetached == 0 {
		return
	}
	for _, g := range all {
		if g.state == gDetached && g.adopted {
			if st, _ := g.doing(); st == runGone {
				s.setState(g, gDone)
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

// collect gathers the cases of the idle select: comeback, the timer (its
// channel set by the caller), then every operation a blocked goroutine
// of all watches. Lock held.
//
//go:norace
func (w *idleState) collect(all []*goroutine) ([]reflect.SelectCase, []idleOwner) {
	cases := append(w.cases[:0],
		reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(w.comeback)},
		reflect.SelectCase{Dir: reflect.SelectRecv})
	owners := w.owners[:0]
	for _, g := range all {
		if g.state == gBlocked && g.watching {
			wt := g.poll.watch()
			for i, c := range wt.cases {
				cases = append(cases, c)
				owners = append(owners, idleOwner{wt, g, i})
			}
		}
	}
	w.cases, w.owners = cases, owners
	return cases, owners
}

// nap is how long the watchdog's next idle select may last, with
// ndetached goroutines detached and watched operations in the select.
// Lock held.
//
//go:norace
func (w *idleState) nap(ndetached, watched int) time.Duration {
	d := w.step
	if d < 50*time.Microsecond {
		d = 50 * time.Microsecond
	}
	if left := time.Until(w.until); left < d {
		d = left
	}
	if ndetached == 0 && watched > 0 {
		d = time.Until(w.until) // only channels: they signal themselves
	}
	w.step = min(2*d, 2*time.Millisecond)
	return d
}

// dropCases drops the references of the idle select's cases. Lock held.
//
//go:norace
func (w *idleState) dropCases() {
	for j := range w.cases {
		w.cases[j] = reflect.SelectCase{} // drop the references
	}
}

// dropOwners drops the references of the idle select's owners. Lock held.
//
//go:norace
func (w *idleState) dropOwners() {
	for j := range w.owners {
		w.owners[j] = idleOwner{}
	}
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

// end ends an idle period that reached its bound: the scheduler goes on
// without waiting (the clock moves, or the execution ends; the caller
// hands the token on). Lock held.
//
//go:norace
func (w *idleState) end() {
	w.waiting.Store(0)
	w.until = time.Time{}
}

// quietDeadlock reports a deadlock when goroutines of the test (of all)
// have waited in uncontrolled code for quietAfter and nothing in the
// process could ever wake them: every other goroutine is the runtime's or
// testing's own, a leftover of an earlier execution, or waits where no
// timer, no I/O and no system call can end the wait (a lock, a wait group,
// a send, a nil channel). A goroutine waiting to receive or in a select
// may be waiting for a timer, and then the verdict is left to stuckAfter.
// mainDone, timers (a timer is pending) and eagerPollers are the core's.
// Lock held.
//
//go:norace
func (w *idleState) quietDeadlock(all []*goroutine, mainDone, timers bool, eagerPollers int, quietAfter time.Duration) bool {
	if mainDone || time.Since(w.since) < quietAfter || timers || eagerPollers > 0 ||
		time.Since(w.quietChecked) < quietAfter/4 {
		return false
	}
	w.quietChecked = time.Now()
	own := ownDetached(all)
	if len(own) == 0 {
		return false
	}
	for _, g := range own {
		if st, why := g.doing(); st != runBlocked || !syncWait(why) {
			return false
		}
	}
	ours := map[int64]bool{goid(): true}
	for _, g := range all {
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

// stuckBug is the verdict of an execution whose goroutines (all, snap
// the snapshot of the live ones) stayed in uncontrolled code past
// stuckAfter. Lock held.
//
//go:norace
func stuckBug(all []*goroutine, snap []gsnap, stuckAfter time.Duration) *bug {
	b := &bug{kind: kindStuck, gs: snap}
	var where []string
	for i, s := range b.gs {
		if g := all[s.id]; g.state == gDetached && !g.inRun {
			where = append(where, "G"+itoa(s.id)+" ("+s.created+") "+b.gs[i].state)
		}
	}
	b.message = "blocked in uncontrolled code for " + stuckAfter.String() + ": " + strings.Join(where, "; ")
	b.key = kindStuck + ":" + siteKey(b.gs)
	return b
}

// liveGoroutines lists the goroutines that have not exited. Lock held.
//
//go:norace
func liveGoroutines(all []*goroutine) []*goroutine {
	var gs []*goroutine
	for _, g := range all {
		if g.state != gDone {
			gs = append(gs, g)
		}
	}
	return gs
}
