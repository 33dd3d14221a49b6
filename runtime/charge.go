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

// clockRecord is the clock's record of an execution: the real time spent
// in uncontrolled code that moved the clock (its charges, measured or
// taken from a replayed trace or the previous execution), and the timers
// fired early at the strategy's choice (timing.go). It needs from the core
// the decisions made so far (a charge is recorded before one), the clock
// to move, and the runtime's lock (held, the holder's stall is the
// runtime's own work, not charged).
type clockRecord struct {
	// charged is set when real time spent in uncontrolled code moved the
	// clock; charges are the trail's record of it: the step of each
	// charge and the time charged, which a replay applies again.
	charged bool
	charges []charge
	// earlies are the timers fired early, at the strategy's choice
	// (timing.go).
	earlies []earlyFiring
	// earlyWithheld: a timer could have fired early, and the strategy,
	// an EventUser that also locates, was not offered it
	// (strategies.End.EarlyTimers).
	earlyWithheld bool
	// replayCharges, when replaying, are the recorded charges to apply
	// instead of measuring real time (never nil then).
	replayCharges []charge
	// pendingCharge and stalled (nanoseconds, the watchdog's) are real
	// time spent in uncontrolled code, to charge at the next decision.
	pendingCharge time.Duration
	stalled       atomicInt64
	// prevTrail and prevCharges are the previous execution's decisions and
	// charges, prevSame how many of this one's decisions were checked
	// equal to them (prefixCharge); prevTrail is nil once they differ.
	prevTrail   []decision
	prevCharges []charge
	prevSame    int
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

// chargeStall applies to c, at a decision (trail are the decisions made
// before it), what uncontrolled code cost since the last one: the recorded
// charge of this decision when replaying, else the measured one. Lock held.
//
//go:norace
func (r *clockRecord) chargeStall(trail []decision, c *clock) {
	if r.replayCharges != nil {
		at := len(trail)
		for len(r.replayCharges) > 0 && r.replayCharges[0].at <= at {
			if r.replayCharges[0].at == at {
				r.applyCharge(at, r.replayCharges[0].d, c)
			}
			r.replayCharges = r.replayCharges[1:]
		}
		r.pendingCharge = 0
		r.stalled.Store(0)
		return
	}
	d := r.pendingCharge
	r.pendingCharge = 0
	if r.stalled.Load() != 0 {
		d += time.Duration(r.stalled.Swap(0))
	}
	if pd, ok := r.prefixCharge(trail); ok {
		d = pd
	}
	r.applyCharge(len(trail), d, c)
}

// prefixCharge is the previous execution's charge before the decision
// about to be made, if every decision so far (trail) was the previous
// one's. Lock held.
//
//go:norace
func (r *clockRecord) prefixCharge(trail []decision) (time.Duration, bool) {
	at := len(trail)
	if at >= len(r.prevTrail) {
		r.prevTrail = nil
		return 0, false
	}
	for ; r.prevSame < at; r.prevSame++ {
		if trail[r.prevSame] != r.prevTrail[r.prevSame] {
			r.prevTrail = nil
			return 0, false
		}
	}
	var d time.Duration
	for len(r.prevCharges) > 0 && r.prevCharges[0].at <= at {
		if r.prevCharges[0].at == at {
			d += r.prevCharges[0].d
		}
		r.prevCharges = r.prevCharges[1:]
	}
	return d, true
}

// applyCharge moves c by d, before decision at, and records it. Lock held.
//
//go:norace
func (r *clockRecord) applyCharge(at int, d time.Duration, c *clock) {
	if d <= 0 {
		return
	}
	c.charge(d)
	r.charged = true
	r.charges = append(r.charges, charge{at: at, d: d})
}

// noteStall is the watchdog's: the token holder, computing, has made no
// decision in the last d (bounded by the watchdog for a loaded machine).
// off is settings.noStallCharge; mu is the runtime's lock.
//
//go:norace
func (r *clockRecord) noteStall(d time.Duration, off bool, mu *rtMutex) {
	if off {
		return
	}
	if !mu.TryLock() {
		return // the runtime's own work
	}
	mu.Unlock()
	r.stalled.Add(int64(d))
}

// leftAt records, as the watchdog detaches g at virtual instant now, when
// its stay in uncontrolled code began, for the charge when it comes back
// (the stall so far is charged at the next decision). Lock held.
//
//go:norace
func (r *clockRecord) leftAt(g *goroutine, now time.Duration) {
	g.awayVirtual = now
	g.awayReal = time.Now()
}

// cameBack charges the clock, now at virtual instant now, for the stay of
// g, back from uncontrolled code, at the next decision. Lock held.
//
//go:norace
func (r *clockRecord) cameBack(g *goroutine, now time.Duration) {
	if g.inRun || g.awayReal.IsZero() {
		return
	}
	target := g.awayVirtual + time.Since(g.awayReal)
	g.awayReal = time.Time{}
	if d := target - now; d > r.pendingCharge {
		r.pendingCharge = d
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
