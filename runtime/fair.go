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
// then on a fair random choice decides (fairness), so the spin ends unless it is a
// livelock. The trigger is a property of the schedule, not of its length:
// a long test whose goroutines all keep taking turns stays under the
// strategy's control to the end.

// fairness is the fair tail of an execution: from which step the fair
// choice decides, its generator, and the locations read since (the
// livelock oracle's measure of progress). It needs of the core the step
// count and the trail when it starts (start's parameters), and the
// goroutine about to step (readsNew's).
type fairness struct {
	since int // the step from which the fair choice decides; 0: not yet
	// reads are the locations read since the step since.
	// An rmap, not a map: the goroutines of the execution share it, and
	// Go's maps would report their accesses under -race.
	reads rmap[unsafe.Pointer, bool]
	gen   uint64 // choice's generator state
}

// start hands the rest of the execution to choice, at step steps. The
// generator is seeded from the decisions taken so far (trail): a replay,
// which takes the same decisions, makes the same fair choices, and
// executions that reached this point differently do not all share one
// fair tail. Lock held.
//
//go:norace
func (f *fairness) start(steps int, trail []decision) {
	f.since = steps
	f.reads = rmap[unsafe.Pointer, bool]{}
	h := uint64(14695981039346656037) // FNV-1a
	for _, d := range trail {
		h = (h ^ uint64(uint32(d.choice))) * 1099511628211
		h = (h ^ uint64(uint32(d.cur))) * 1099511628211
	}
	f.gen = h
}

// choice is a uniform choice among n. Its generator depends only on the
// execution's decisions, so its choices are in the trail and replay like
// any other.
//
//go:norace
func (f *fairness) choice(n int) int {
	f.gen = f.gen*6364136223846793005 + 1442695040888963407
	return int((f.gen >> 33) % uint64(n))
}

// following reports whether the strategy s replays a recorded schedule and
// still follows it (strategies.Follower). Such a strategy is asked for the fair decisions too
// and answers with the recorded ones: it stays in step with the trail (a
// replay that left the fair steps to the fair choice saw the recorded decisions
// from the first fair step on as never taken, and reported every trace
// that reached it as diverged), and the replay does not depend on how
// the fair choice is seeded. Once diverged, the fair choice decides again.
// Lock held.
//
//go:norace
func following(s strategies.Strategy) bool {
	f, ok := s.(strategies.Follower)
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
func (f *fairness) readsNew(g *goroutine) bool {
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
	if f.reads.get(p) || f.reads.len() >= maxFairReads {
		return false
	}
	f.reads.put(p, true)
	return true
}
