package runtime

import (
	"sync/atomic"
	"time"

	"github.com/gosct/gosct/replay"
)

// Real time spent in uncontrolled code reaches the virtual clock. A
// subprocess, a system call or a slow library call takes real time, and a
// timeout racing with it must be able to fire first, as it would in Go. Two
// measurements feed the clock:
//
//   - the watchdog (watchdog.go), which looks at the token holder every
//     few tens of microseconds, adds up the time between two of its looks
//     during which the holder made no decision and computed, in its own
//     code or in uncontrolled code: the runtime's lock was free (a slow
//     decision of a strategy, or the runtime's own bookkeeping, holds it
//     and is not charged), and each look counts for at most two of the
//     watchdog's naps (when its own nap overshoots, the machine did not run
//     the process, and the holder did not run either) and, where the
//     holder's thread's CPU clock can be read (threadcpu_linux.go), for
//     no more than that thread ran: on a loaded machine the holder's
//     thread waits for a CPU, and that wait is the machine's, not the
//     program's. The first look of a stall is not counted, nor its first
//     millisecond (stallFree: gosct's own collector assists and
//     bookkeeping). At the holder's next decision the sum is charged;
//   - a goroutine the watchdog detached (blocked in uncontrolled code: a
//     system call, a subprocess, a library's channel; or computing too
//     long) is charged, when it comes back, the real time it was away:
//     the clock moves to at least the virtual instant it left plus that
//     time.
//
// The measure errs short: time is charged only when it certainly passed
// in the program's own code.
// A charge is applied at a decision and recorded in the trail (the
// decision's index and the time), so a replay moves the clock exactly as
// the recorded execution did instead of measuring again. Goroutines waiting
// in testing's t.Run for a controlled subtest are not charged: the
// subtest's own steps already count.
//
// A systematic strategy (dfs, dpor, the bounded ones) runs the previous
// execution's decisions again up to the one it changes. Measured afresh,
// that prefix's charges would differ on a loaded machine, the program
// could read another time and take another path under the same
// decisions, and the strategy's tree would no longer describe the
// program (a branch lost, a find owed to load). So while an execution's
// decisions are the previous one's, it takes the previous one's charges
// (prefixCharge), and measures only past the first new decision.

// charge is one charge of the trail: before decision at (an index into
// the trail), the clock moved by d.
type charge struct {
	at int
	d  time.Duration
}

// recordedCharges are the charges a trace records, never nil.
//
//go:norace
func recordedCharges(tr *replay.Trace) []charge {
	cs := []charge{}
	for i, d := range tr.Decisions {
		if d.ChargedNS > 0 {
			cs = append(cs, charge{at: i, d: time.Duration(d.ChargedNS)})
		}
	}
	return cs
}

// chargeStall applies, at a decision, what uncontrolled code cost since
// the last one: the recorded charge of this decision when replaying, else
// the measured one. Lock held.
//
//go:norace
func (e *execution) chargeStall() {
	if e.replayCharges != nil {
		at := len(e.trail)
		for len(e.replayCharges) > 0 && e.replayCharges[0].at <= at {
			if e.replayCharges[0].at == at {
				e.applyCharge(e.replayCharges[0].d)
			}
			e.replayCharges = e.replayCharges[1:]
		}
		e.pendingCharge = 0
		e.stalled.Store(0)
		return
	}
	d := e.pendingCharge
	e.pendingCharge = 0
	if e.stalled.Load() != 0 {
		d += time.Duration(e.stalled.Swap(0))
	}
	if pd, ok := e.prefixCharge(); ok {
		d = pd
	}
	e.applyCharge(d)
}

// prefixCharge is the previous execution's charge before the decision
// about to be made, if every decision so far was the previous one's. Lock
// held.
//
//go:norace
func (e *execution) prefixCharge() (time.Duration, bool) {
	at := len(e.trail)
	if at >= len(e.prevTrail) {
		e.prevTrail = nil
		return 0, false
	}
	for ; e.prevSame < at; e.prevSame++ {
		if e.trail[e.prevSame] != e.prevTrail[e.prevSame] {
			e.prevTrail = nil
			return 0, false
		}
	}
	var d time.Duration
	for len(e.prevCharges) > 0 && e.prevCharges[0].at <= at {
		if e.prevCharges[0].at == at {
			d += e.prevCharges[0].d
		}
		e.prevCharges = e.prevCharges[1:]
	}
	return d, true
}

// applyCharge moves the clock by d and records it. Lock held.
//
//go:norace
func (e *execution) applyCharge(d time.Duration) {
	if d <= 0 {
		return
	}
	e.clock.charge(e, d)
	e.charges = append(e.charges, charge{at: len(e.trail), d: d})
}

// noteStall is the watchdog's: the token holder, computing, has made no
// decision in the last d (bounded by the watchdog for a loaded machine).
//
//go:norace
func (e *execution) noteStall(d time.Duration) {
	if e.set.noStallCharge {
		return
	}
	if !e.mu.TryLock() {
		return // the runtime's own work
	}
	e.mu.Unlock()
	e.stalled.Add(int64(d))
}

// leftAt records, as the watchdog detaches g, when its stay in
// uncontrolled code began, for the charge when it comes back (the stall
// so far is charged at the next decision). Lock held.
//
//go:norace
func (e *execution) leftAt(g *goroutine) {
	g.awayVirtual = e.clock.now
	g.awayReal = time.Now()
}

// cameBack charges the clock for the stay of g, back from uncontrolled
// code, at the next decision. Lock held.
//
//go:norace
func (e *execution) cameBack(g *goroutine) {
	if g.inRun || g.awayReal.IsZero() {
		return
	}
	target := g.awayVirtual + time.Since(g.awayReal)
	g.awayReal = time.Time{}
	if d := target - e.clock.now; d > e.pendingCharge {
		e.pendingCharge = d
	}
}

// atomicInt64 is an atomic the watchdog and the token holder share,
// invisible to Go's race detector like the runtime's other atomics.
type atomicInt64 struct{ n atomic.Int64 }

//go:norace
func (a *atomicInt64) Load() int64 {
	raceDisable()
	v := a.n.Load()
	raceEnable()
	return v
}

//go:norace
func (a *atomicInt64) Store(v int64) {
	raceDisable()
	a.n.Store(v)
	raceEnable()
}

//go:norace
func (a *atomicInt64) Swap(v int64) int64 {
	raceDisable()
	old := a.n.Swap(v)
	raceEnable()
	return old
}

//go:norace
func (a *atomicInt64) Add(d int64) int64 {
	raceDisable()
	v := a.n.Add(d)
	raceEnable()
	return v
}
