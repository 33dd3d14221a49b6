package runtime

import (
	"reflect"
	"runtime"
	"time"
)

// The time hooks. Inside an execution they work on the virtual clock
// (time.go); outside they are the real functions.
//
// NewTimer and NewTicker return real *time.Timer and *time.Ticker values
// whose channel the runtime owns and feeds; TimerStop and friends find
// their model through the execution's maps. A timer the runtime does not
// know (made by uncontrolled code, or by an earlier execution) gets the
// real method.
//
// Approximation: the channel of a virtual timer has a buffer of one, so
// cap and len of it report 1 where Go 1.23 reports 0; receives behave as
// Go 1.23's synchronous timer channels do (Stop and Reset drain the
// buffer, so no stale value is received after they return). Modules that
// declare a go version before 1.23 get the old asynchronous timers from
// Go (GODEBUG asynctimerchan=1); gosct models the new ones regardless.

// Now is time.Now on the virtual clock: the instant the execution started
// plus the virtual time elapsed. Reading the clock costs a step's time, so
// two reads are never equal.
//
//go:norace
func Now() time.Time {
	noteDrawnHere(ctlTime) // the clock's origin is drawn from the seed
	return clockNow()
}

// clockNow is Now for the runtime's own use (a context's deadline), where
// only a duration from now matters to the program: no value it reads.
//
//go:norace
func clockNow() time.Time {
	e, _ := enter()
	if e == nil {
		return time.Now()
	}
	e.mu.Lock()
	t := e.clock.read(e)
	e.in.observe(len(e.trail), "time", "time.Now", hashUint(uint64(t.UnixNano())), e.set.free&ctlTime == 0)
	e.mu.Unlock()
	return t
}

// Since is time.Since on the virtual clock.
//
//go:norace
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until is time.Until on the virtual clock.
//
//go:norace
func Until(t time.Time) time.Duration { return t.Sub(Now()) }

// Sleep is time.Sleep on the virtual clock: the goroutine blocks until the
// clock reaches now+d (see time.go for when it moves).
// Sleep(d <= 0) is a scheduling point at which the caller yields.
//
//go:norace
func Sleep(d time.Duration) {
	e, me := enter()
	if e == nil {
		time.Sleep(d)
		return
	}
	if d <= 0 {
		e.yield(me, opYield)
		return
	}
	// No scheduling point before blocking: registering a timer is not
	// visible to other goroutines, and blocking hands the token on anyway.
	me.op = opSleep
	me.ev = evRecord{}
	if e.ev.states {
		me.stack = stackHash()
	}
	if e.set.detailed {
		where(me)
	}
	e.mu.Lock()
	if e.aborting {
		e.mu.Unlock()
		if !e.die(me) {
			time.Sleep(d)
		}
		return
	}
	t := &vtimer{kind: tkSleep, g: me, idx: -1}
	e.clock.arm(e, t, d, me)
	what := "sleep " + d.String()
	for {
		if !e.block(me, what) {
			// Released: the execution is over; sleep what is left, for real.
			e.mu.Lock()
			left := t.when - e.clock.now
			e.mu.Unlock()
			time.Sleep(left)
			return
		}
		e.mu.Lock()
		if t.fired {
			e.mu.Unlock()
			return
		}
	}
}

// NewTimer is time.NewTimer on the virtual clock.
//
//go:norace
func NewTimer(d time.Duration) *time.Timer {
	e, me := enter()
	if e == nil {
		return time.NewTimer(d)
	}
	t, _ := newChanTimer(e, me, d, 0)
	if t == nil {
		return time.NewTimer(d)
	}
	return t
}

// After is time.After on the virtual clock.
//
//go:norace
func After(d time.Duration) <-chan time.Time { return NewTimer(d).C }

// NewTicker is time.NewTicker on the virtual clock.
//
//go:norace
func NewTicker(d time.Duration) *time.Ticker {
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	e, me := enter()
	if e == nil {
		return time.NewTicker(d)
	}
	_, tk := newChanTimer(e, me, d, d)
	if tk == nil {
		return time.NewTicker(d)
	}
	return tk
}

// Tick is time.Tick on the virtual clock.
//
//go:norace
func Tick(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	return NewTicker(d).C
}

// newChanTimer makes a virtual channel timer (a ticker if period > 0).
// Creating a timer is not a scheduling point: nothing another goroutine
// can observe happens until it fires. me is the goroutine that makes it.
// Nil results: the execution is over.
//
//go:norace
func newChanTimer(e *execution, me *goroutine, d, period time.Duration) (*time.Timer, *time.Ticker) {
	c := make(chan time.Time, 1)
	vt := &vtimer{kind: tkChan, ch: c, period: period, idx: -1}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.over {
		return nil, nil
	}
	if e.set.detailed {
		vt.site = callerPos()
	}
	cs := e.models.chanOf(chanKey((<-chan time.Time)(c)))
	cs.owned, cs.timer = true, true
	e.clock.arm(e, vt, d, me)
	e.clock.armed(e)
	if period > 0 {
		tk := &time.Ticker{C: c}
		e.clock.tickers.put(tk, vt)
		return nil, tk
	}
	t := &time.Timer{C: c}
	e.clock.timers.put(t, vt)
	return t, nil
}

// AfterFunc is time.AfterFunc on the virtual clock: when the timer fires,
// f starts in a new goroutine of the execution.
//
//go:norace
func AfterFunc(d time.Duration, f func()) *time.Timer {
	e, me := enter()
	if e == nil {
		return time.AfterFunc(d, f)
	}
	var pcs [1]uintptr
	runtime.Callers(2, pcs[:])
	t := &time.Timer{}
	vt := &vtimer{kind: tkFunc, f: f, pc: pcs[0], owner: me.id, idx: -1}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.over {
		return time.AfterFunc(d, f)
	}
	e.clock.timers.put(t, vt)
	goRaceReleaseMerge(timerKey(vt))
	e.race.release(me, timerKey(vt))
	e.clock.arm(e, vt, d, me)
	e.clock.armed(e)
	return t
}

// modelTimer returns the model of t and the caller's execution, or nils
// when t is not a virtual timer of the caller's execution.
//
//go:norace
func modelTimer(t *time.Timer) (*execution, *goroutine, *vtimer) {
	e, me := enter()
	if e == nil {
		return nil, nil, nil
	}
	e.mu.Lock()
	vt := e.clock.timers.get(t)
	e.mu.Unlock()
	if vt == nil {
		return nil, nil, nil
	}
	return e, me, vt
}

//go:norace
func modelTicker(t *time.Ticker) (*execution, *goroutine, *vtimer) {
	e, me := enter()
	if e == nil {
		return nil, nil, nil
	}
	e.mu.Lock()
	vt := e.clock.tickers.get(t)
	e.mu.Unlock()
	if vt == nil {
		return nil, nil, nil
	}
	return e, me, vt
}

// TimerStop is t.Stop(): it reports whether the call stopped the timer
// (for a channel timer, also when it had fired but its value was not yet
// received: the value is drained, as in Go 1.23).
//
//go:norace
func TimerStop(t *time.Timer) bool {
	e, me, vt := modelTimer(t)
	if vt == nil || !e.yieldEv(me, opTimer, evRecord{obj: ptrOf(vt)}) {
		return realTimerStop(t)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.clock.stop(e, vt)
}

// TimerReset is t.Reset(d): it reports whether the timer had been active.
// Reset of an AfterFunc timer that has fired schedules f to run again.
//
//go:norace
func TimerReset(t *time.Timer, d time.Duration) bool {
	e, me, vt := modelTimer(t)
	if vt == nil || !e.yieldEv(me, opTimer, evRecord{obj: ptrOf(vt)}) {
		return realTimerReset(t, d)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	active := e.clock.stop(e, vt)
	goRaceReleaseMerge(timerKey(vt))
	e.race.release(me, timerKey(vt))
	e.clock.arm(e, vt, d, me)
	return active
}

// TickerStop is tk.Stop(): no more ticks; a tick not yet received is
// dropped.
//
//go:norace
func TickerStop(tk *time.Ticker) {
	e, me, vt := modelTicker(tk)
	if vt == nil || !e.yieldEv(me, opTimer, evRecord{obj: ptrOf(vt)}) {
		tk.Stop() // the real method; a no-op on a ticker it did not make
		return
	}
	e.mu.Lock()
	e.clock.stop(e, vt)
	e.mu.Unlock()
}

// TickerReset is tk.Reset(d): the next tick comes d from now, and then
// every d.
//
//go:norace
func TickerReset(tk *time.Ticker, d time.Duration) {
	if d <= 0 {
		panic("non-positive interval for Ticker.Reset")
	}
	e, me, vt := modelTicker(tk)
	if vt == nil || !e.yieldEv(me, opTimer, evRecord{obj: ptrOf(vt)}) {
		if tk == nil || initialized(reflect.ValueOf(tk).Elem(), "initTicker") {
			tk.Reset(d)
		}
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.clock.stop(e, vt)
	vt.period = d
	e.clock.arm(e, vt, d, me)
}

// stop disarms vt; true if it was active. Lock held.
//
//go:norace
func (c *clock) stop(e *execution, vt *vtimer) bool {
	active := c.disarm(vt)
	if vt.kind == tkChan && !asyncTimerChans && drain(vt.ch) {
		active = true
		e.ev.popped(e.models.chanOf(chanKey((<-chan time.Time)(vt.ch))))
	}
	return active
}

// realTimerStop and realTimerReset call the real methods, except on a
// virtual timer left over from an earlier execution (its runtime fields
// are not initialized, and the real method would panic): such a timer is
// stopped.
//
//go:norace
func realTimerStop(t *time.Timer) bool {
	// A nil timer panics in the real method, as in Go.
	if t != nil && !initialized(reflect.ValueOf(t).Elem(), "initTimer") {
		return false
	}
	return t.Stop()
}

//go:norace
func realTimerReset(t *time.Timer, d time.Duration) bool {
	if t != nil && !initialized(reflect.ValueOf(t).Elem(), "initTimer") {
		return false
	}
	return t.Reset(d)
}

// initialized reports whether the time package made the Timer or Ticker
// v (its unexported init flag is set). If a later Go renames the flag, it
// assumes so.
//
//go:norace
func initialized(v reflect.Value, field string) bool {
	f := v.FieldByName(field)
	if !f.IsValid() || f.Kind() != reflect.Bool {
		return true
	}
	return f.Bool()
}
