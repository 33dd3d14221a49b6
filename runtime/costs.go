package runtime

import "time"

// What work costs on the virtual clock (docs/runtime.md, "Time"). Every
// step a goroutine takes is charged, as it is chosen, what its operation
// takes in Go at best on the machine the table was measured on; a read of
// the clock is charged what time.Now takes, arming a timer what
// time.NewTimer takes; and a timer wakes what it wakes (a sleeper, a
// receiver of its channel, an AfterFunc's goroutine) no earlier than Go's
// fastest wake-up after it. The figures are the minima of
// BenchmarkGoCost (gocost_bench_test.go; the least over its runs, rounded
// down; docs/runtime.md has the table): the minimum, not
// the mean, so that virtual time never passes slower than Go's can (two
// reads of the clock a sleep apart are at least as far apart as in Go:
// a sleep never ends at its deadline to the nanosecond) nor faster
// (work never makes a timeout fire that could not fire in Go). Costs are
// in picoseconds: a memory access takes a fifth of a nanosecond.
//
// Goroutines run one at a time on the virtual clock, so work that Go
// would do in parallel on several cores adds up here: a bound that holds
// for each goroutine, not for the sum of several running at once
// (docs/limitations.md).
//
// settings.uniformCost replaces the table with one cost per step and per
// read of the clock, and no timer latency: the model before the table,
// for the traces written under it (their step_cost) and for measuring.

// calibratedCost is the step_cost of a trace charged Go's costs.
const calibratedCost = "calibrated"

// opCost is the charge, in picoseconds, of a step whose operation is op.
// An operation the table leaves at 0 costs nothing: a goroutine resuming
// from a sleep (the timer's wake-up latency is charged by the timer), an
// exit, a call into uncontrolled code (its real time is charged,
// charge.go), t.Run.
var opCost = [...]int64{
	opGo:           52_000, // go: the go statement, in the goroutine that runs it
	opStart:        35_000, // start: the go statement to the first step, less the statement
	opYield:        68_000, // gosched
	opSend:         17_000, // chan-send-recv
	opRecv:         17_000, // chan-send-recv
	opClose:        15_000, // chan-close
	opLen:          2_000,  // chan-len
	opSelect:       40_000, // select
	opLock:         5_000,  // lock-unlock
	opUnlock:       5_000,  // lock-unlock
	opRLock:        6_000,  // rlock-runlock
	opRUnlock:      6_000,  // rlock-runlock
	opRWLock:       11_000, // rwlock-rwunlock
	opRWUnlock:     11_000, // rwlock-rwunlock
	opWaitGroup:    7_000,  // waitgroup
	opWait:         3_000,  // waitgroup-wait
	opOnce:         1_000,  // once
	opCondWait:     5_000,  // lock-unlock: the unlock before it waits, the lock after
	opSignal:       3_000,  // cond-signal
	opBroadcast:    4_000,  // cond-broadcast
	opAtomic:       6_000,  // atomic
	opAtomicLoad:   1_000,  // atomic-load
	opRead:         200,    // memory
	opWrite:        200,    // memory
	opTimer:        68_000, // timer-arm-stop: a Stop or a Reset
	opCancel:       59_000, // cancel
	opNumGoroutine: 1_000,  // numgoroutine
	opStack:        2_800_000,
	opRun:          0,
	opSleep:        0,
	opUncontrolled: 0,
	opExit:         0,
	opNone:         0,
}

const (
	// costNow is time.Now (now).
	costNow = 51_000
	// costArm is arming a new timer: time.NewTimer, NewTicker,
	// AfterFunc, a context's deadline (timer-arm-stop).
	costArm = 68_000
)

// The wake-up after a timer: how late, at best, what a timer wakes
// starts again after its deadline. A sleep ends (sleep-wake), a receive
// from a timer's channel returns (timer-wake), an AfterFunc's function
// starts (afterfunc-wake, less a goroutine's start, which its first step
// is charged). The least over the durations measured: a longer sleep
// wakes later still in Go.
const (
	wakeSleep = 140 * time.Nanosecond
	wakeChan  = 280 * time.Nanosecond
	wakeFunc  = 165 * time.Nanosecond
	// maxWake is the largest of them.
	maxWake = max(wakeSleep, wakeChan, wakeFunc)
)

// latency is how late, at best, timer t wakes what it wakes; none under
// settings.uniformCost (uniform).
//
//go:norace
func latency(t *vtimer, uniform bool) time.Duration {
	if uniform {
		return 0
	}
	switch t.kind {
	case tkSleep:
		return wakeSleep
	case tkChan:
		return wakeChan
	}
	return wakeFunc
}

// spend moves both clocks by ps picoseconds of work, keeping the
// fraction of a nanosecond for the next charge. Lock held.
//
//go:norace
func (c *clock) spend(ps int64) {
	c.ps += ps
	d := time.Duration(c.ps / 1000)
	c.ps -= int64(d) * 1000
	c.now += d
	c.floor += d
}

// stepped charges the step of g about to run, as a decision chose it.
// Lock held.
//
//go:norace
func (c *clock) stepped(e *execution, g *goroutine) {
	if e.set.uniformCost || int(g.op) >= len(opCost) {
		return
	}
	c.spend(opCost[g.op])
}

// armed charges the arming of a new timer. Lock held.
//
//go:norace
func (c *clock) armed(e *execution) {
	if !e.set.uniformCost {
		c.spend(costArm)
	}
}
