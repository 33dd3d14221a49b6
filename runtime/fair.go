package runtime

import (
	"unsafe"

	"github.com/gosct/gosct/strategies"
)

// Fairness: the strategy decides every step of an execution until the
// schedule starves a goroutine (a runnable goroutine not chosen for
// settings.fairAfter steps) or stops changing shared state for as long.
// Both are what a spin loop does under a strategy that keeps running the
// same goroutine (PCT's priorities, DFS's "current goroutine first"); from
// then on a fair random choice decides, so the spin ends unless it is a
// livelock. The trigger is a property of the schedule, not of its length:
// a long test whose goroutines all keep taking turns stays under the
// strategy's control to the end.

// startFair hands the rest of the execution to fairChoice. The generator
// is seeded from the decisions taken so far: a replay, which takes the
// same decisions, makes the same fair choices, and executions that reached
// this point differently do not all share one fair tail. Lock held.
//
//go:norace
func (e *execution) startFair() {
	e.fairSince = e.steps
	e.fairReads = rmap[unsafe.Pointer, bool]{}
	h := uint64(14695981039346656037) // FNV-1a
	for _, d := range e.trail {
		h = (h ^ uint64(uint32(d.choice))) * 1099511628211
		h = (h ^ uint64(uint32(d.cur))) * 1099511628211
	}
	e.fair = h
}

// fairChoice is a uniform choice among n. Its generator depends only on
// the execution's decisions, so its choices are in the trail and replay
// like any other.
//
//go:norace
func (e *execution) fairChoice(n int) int {
	e.fair = e.fair*6364136223846793005 + 1442695040888963407
	return int((e.fair >> 33) % uint64(n))
}

// following reports whether the strategy replays a recorded schedule and
// still follows it (strategies.Follower). Such a strategy is asked for the fair decisions too
// and answers with the recorded ones: it stays in step with the trail (a
// replay that left the fair steps to fairChoice saw the recorded decisions
// from the first fair step on as never taken, and reported every trace
// that reached it as diverged), and the replay does not depend on how
// fairChoice is seeded. Once diverged, the fair choice decides again.
// Lock held.
//
//go:norace
func (e *execution) following() bool {
	f, ok := e.strat.(strategies.Follower)
	return ok && f.Following()
}

// maxFairReads bounds the locations readsNew remembers.
const maxFairReads = 1 << 20

// readsNew reports whether g is about to read a location it or another
// goroutine has not read since the schedule went fair: that is progress,
// as a write is. Goroutines that spin re-read the few locations they wait
// on; a long computation that only reads (the lookups of many keys in a
// table) goes on reaching new ones, and is not a livelock however long it
// takes in steps: it is bounded by --max-steps, too long to explore. Lock
// held.
//
//go:norace
func (e *execution) readsNew(g *goroutine) bool {
	if g.op != opRead {
		return false
	}
	p := g.ev.obj
	if p == nil && g.ev.addr != nil {
		p = dataPtr(g.ev.addr)
	}
	if p == nil {
		return false
	}
	if e.fairReads.get(p) || e.fairReads.len() >= maxFairReads {
		return false
	}
	e.fairReads.put(p, true)
	return true
}
