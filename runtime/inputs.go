package runtime

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	mrand "math/rand"
	mrand2 "math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gosct/gosct/replay"
)

// The sources of nondeterminism of a test besides the schedule: what the
// program draws at random, the order it iterates over maps, the time it
// reads, how many goroutines it counts. An execution's inputs fix them all
// (docs/runtime.md, "What is controlled"): a seed for its random source
// (math/rand draws that are not decisions, map orders, crypto/rand), the
// instant its virtual clock starts from, and the goroutine count it starts
// from. The explorer makes them for every execution; the trace records
// them; a replay, the detailed re-run of a buggy schedule and the second
// run of the determinism check take them from there, so the program reads
// what it read the first time.
//
// The sources the runtime only sees (environment variables, files, channels
// fed by uncontrolled code, goroutines running in uncontrolled code) are
// noted in the execution's source log in detailed mode (observe), with a
// hash of what was read: a run that diverges from a recorded one compares
// the logs to name the likely cause (replay.Cause).

// control is a set of the controls of the sources of nondeterminism.
type control uint8

const (
	ctlRand       control = 1 << iota // math/rand, math/rand/v2 package-level draws
	ctlMaps                           // map iteration order
	ctlTime                           // the virtual clock's epoch
	ctlGoroutines                     // runtime.NumGoroutine
	ctlCrypto                         // crypto/rand
)

var controlNames = [...]struct {
	c    control
	name string
}{{ctlRand, "rand"}, {ctlMaps, "maps"}, {ctlTime, "time"}, {ctlGoroutines, "goroutines"}, {ctlCrypto, "crypto"}}

// parseControls reads a list of control names (wire.Config.Free).
//
//go:norace
func parseControls(names []string) (control, error) {
	var c control
	for _, n := range names {
		found := false
		for _, cn := range controlNames {
			if cn.name == n {
				c |= cn.c
				found = true
			}
		}
		if !found {
			var known []string
			for _, cn := range controlNames {
				known = append(known, cn.name)
			}
			return 0, fmt.Errorf("unknown control %q (known: %s)", n, strings.Join(known, ", "))
		}
	}
	return c, nil
}

//go:norace
func (c control) names() []string {
	var out []string
	for _, cn := range controlNames {
		if c&cn.c != 0 {
			out = append(out, cn.name)
		}
	}
	return out
}

// inputs are what an execution draws from the controlled sources.
type inputs struct {
	seed       uint64 // the random source's seed
	epoch      int64  // Unix ns of the virtual clock's start
	goroutines int    // runtime.NumGoroutine at the start
	// onces are the positions of the Do calls whose Once the recorded
	// execution found done by an earlier execution of its process (a
	// replay runs their functions first: once.go).
	onces []string
	// fresh holds the Onces an execution completed: its in-process
	// re-runs, which share its inputs, treat them as new (once.go). Not
	// recorded.
	fresh *onceSet
}

// freshInputs are the inputs of a new execution: the seed from the run's
// seed and, unless the strategy re-executes prefixes (Stateless), the
// schedule number; the goroutine count as it is now. The epoch, the
// virtual clock's origin, is within a second after now, at a fraction of
// a second drawn from the seed, like the random source: a re-executing
// strategy's executions, and two strategies run with one seed, read the
// same fraction of a second under the same decisions (a program that
// branches on the millisecond takes the same branch), while a random
// strategy's schedules each draw another. The second stays the present
// one, and never before now: a deadline the program computes from
// time.Now and hands to a real connection (net.Conn.SetDeadline) must not
// be in the real past.
//
//go:norace
func freshInputs(runSeed int64, schedule int, stateless bool, now time.Time) inputs {
	n := uint64(schedule)
	if stateless {
		n = 0
	}
	seed := mix64(uint64(runSeed)*0x9e3779b97f4a7c15 + n)
	epoch := now.Truncate(time.Second).UnixNano() + int64(mix64(seed^0x5eed0f7153)%uint64(time.Second))
	if epoch < now.UnixNano() {
		epoch += int64(time.Second)
	}
	return inputs{seed: seed, epoch: epoch, goroutines: runtime.NumGoroutine()}
}

// setInputs gives e its inputs: the virtual clock starts at their epoch
// unless the time control is off.
//
//go:norace
func (e *execution) setInputs(in inputs) {
	if in.fresh == nil {
		in.fresh = new(onceSet)
	}
	in.onces = append([]string(nil), in.onces...) // consumed by takeCarried
	e.in = in
	if e.set.free&ctlTime == 0 {
		e.clock.start = time.Unix(0, in.epoch)
	}
	if raceEnabled {
		// math/rand's generators are made before the execution's
		// goroutines start, which Go's race detector sees: made by
		// the first goroutine to draw, a later drawer would be
		// reported racing with it. Making them draws nothing.
		e.makeRand()
	}
}

//go:norace
func (in inputs) record(free control, carried []string) *replay.Inputs {
	return &replay.Inputs{Seed: in.seed, Epoch: in.epoch, Goroutines: in.goroutines, Free: free.names(), Onces: carried}
}

//go:norace
func inputsOf(r *replay.Inputs) inputs {
	return inputs{seed: r.Seed, epoch: r.Epoch, goroutines: r.Goroutines, onces: r.Onces}
}

// mix64 is splitmix64's finalizer.
//
//go:norace
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// execSource is the execution's random source: splitmix64, seeded from its
// inputs. It serves math/rand (Source64) and math/rand/v2 (Source).
type execSource struct{ s uint64 }

//go:norace
func (r *execSource) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix64(r.s)
}

//go:norace
func (r *execSource) Int63() int64 { return int64(r.Uint64() >> 1) }

// Seed is math/rand.Source's; the execution's source is seeded by the
// runtime only.
//
//go:norace
func (r *execSource) Seed(int64) {}

// rnd returns the execution's math/rand generator. Token held.
//
//go:norace
func (e *execution) rnd() *mrand.Rand {
	e.noteDrawn(ctlRand)
	e.makeRand()
	return e.rand1
}

// makeRand makes the execution's math/rand and math/rand/v2 generators
// if they are not made yet.
//
//go:norace
func (e *execution) makeRand() {
	if e.rand1 == nil {
		e.initSource()
		e.rand1 = mrand.New(&e.src)
	}
	if e.rand2 == nil {
		e.initSource()
		e.rand2 = mrand2.New(&e.src)
	}
}

// rnd2 returns the execution's math/rand/v2 generator. Token held.
//
//go:norace
func (e *execution) rnd2() *mrand2.Rand {
	e.noteDrawn(ctlRand)
	e.makeRand()
	return e.rand2
}

//go:norace
func (e *execution) initSource() {
	if !e.srcInit {
		e.srcInit = true
		e.src.s = e.in.seed
	}
}

// subSeed is a seed of its own for the n-th use of a purpose (a map range),
// independent of how many values the random source has given.
//
//go:norace
func (e *execution) subSeed(n uint64) uint64 { return mix64(e.in.seed ^ mix64(n+0x5851f42d4c957f2d)) }

// noteDrawn notes that the program read a value of source c that no
// decision chose: one of the execution's random source, a large map's
// order, the clock, or one of Go's own with the control off. A systematic
// search does not vary it (a stateless one draws the same in every
// execution), so its end is no proof (strategies.End.Values).
//
//go:norace
func (e *execution) noteDrawn(c control) {
	if e.states {
		// What it draws next follows from where the source and the
		// clock stand, and the control; Go's own draws (the control
		// off) from nothing the signature knows.
		v := mix(mix(e.src.s, e.mapRanges), uint64(e.clock.now)) ^ uint64(c)
		if e.set.free&c != 0 {
			v = uint64(time.Now().UnixNano())
		}
		e.learnt(e.cur.Load(), v)
	}
	for {
		old := e.drew.Load()
		if old&uint32(c) != 0 || e.drew.CompareAndSwap(old, old|uint32(c)) {
			return
		}
	}
}

// noteDrawnHere is noteDrawn for the execution of the calling goroutine.
//
//go:norace
func noteDrawnHere(c control) {
	if e, _ := enter(); e != nil {
		e.noteDrawn(c)
	}
}

// observe notes a read of a source by the user code that called the hook
// in the execution's source log, in detailed mode. Lock held.
//
//go:norace
func (e *execution) observe(kind, what string, value uint64, controlled bool) {
	if e.set.detailed && len(e.sources) < replay.MaxSources {
		e.observeAt(kind, what, callerPos(), value, controlled)
	}
}

// observeAt is observe for a read at pos. Lock held.
//
//go:norace
func (e *execution) observeAt(kind, what, pos string, value uint64, controlled bool) {
	if !e.set.detailed || len(e.sources) >= replay.MaxSources {
		return
	}
	v := ""
	if value != 0 {
		v = strconv.FormatUint(value, 16)
	}
	e.sources = append(e.sources, replay.Source{Kind: kind, What: what, Pos: pos, Step: len(e.trail), Value: v, Controlled: controlled})
}

// noteUncontrolled marks the execution as depending on something the
// runtime does not control, and notes what. Lock held.
//
//go:norace
func (e *execution) noteUncontrolled(kind, what, pos string) {
	e.uncontrolled = true
	e.observeAt(kind, what, pos, 0, false)
}

// hashBytes is the value hash of a source read.
//
//go:norace
func hashBytes(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64() | 1 // never 0: 0 means "nothing to compare"
}

//go:norace
func hashString(s string) uint64 { return hashBytes([]byte(s)) }

//go:norace
func hashUint(v uint64) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	return hashBytes(b[:])
}
