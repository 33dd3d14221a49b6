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
	"sync/atomic"
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
	// The worker goroutines (pool.go), all waiting for a later execution
	// between two, are the runtime's, as the watchdog is, but come and go
	// with the executions before this one: left out (ownGoroutines).
	return inputs{seed: seed, epoch: epoch, goroutines: runtime.NumGoroutine() - ownGoroutines()}
}

// programInputs are the program's inputs in an execution: the inputs
// drawn for it (embedded: e.in.seed), the random source its draws come
// from, which sources it drew from that no decision chose, and, in a
// detailed execution, the source log. It needs from the core the clock
// (its epoch is an input), the number of decisions so far (a source read
// is logged at one), and someone to tell what the program drew (a
// drawNoter: the trail's state signature depends on it).
type programInputs struct {
	inputs
	src     execSource
	srcInit bool
	rand1   *mrand.Rand
	rand2   *mrand2.Rand
	seeded  atomic.Bool // the program called rand.Seed (rand.go)
	// mapRanges counts the execution's map ranges, each shuffled with a
	// seed of its own (maps.go).
	mapRanges uint64
	// drew: the sources of the values the program read that no decision
	// chose (a set of controls; noteDrawn, strategies.End.Values).
	drew atomic.Uint32
	// detailed is settings.detailed: sources is the source log of a
	// detailed execution (observe).
	detailed bool
	sources  []replay.Source
}

// A drawNoter is told that the program read a value of source c that no
// decision chose (execution.noteDrawn).
type drawNoter interface {
	noteDrawn(c control)
}

// set gives p its inputs: the virtual clock c starts at their epoch
// unless the time control is off (free).
//
//go:norace
func (p *programInputs) set(in inputs, free control, c *clock) {
	if in.fresh == nil {
		in.fresh = new(onceSet)
	}
	in.onces = append([]string(nil), in.onces...) // consumed by takeCarried
	p.inputs = in
	if free&ctlTime == 0 {
		c.start = time.Unix(0, in.epoch)
	}
	if raceEnabled {
		// math/rand's generators are made before the execution's
		// goroutines start, which Go's race detector sees: made by
		// the first goroutine to draw, a later drawer would be
		// reported racing with it. Making them draws nothing.
		p.makeRand()
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

// rnd returns the execution's math/rand generator, telling d of the
// draw. Token held.
//
//go:norace
func (p *programInputs) rnd(d drawNoter) *mrand.Rand {
	d.noteDrawn(ctlRand)
	p.makeRand()
	return p.rand1
}

// makeRand makes the execution's math/rand and math/rand/v2 generators
// if they are not made yet.
//
//go:norace
func (p *programInputs) makeRand() {
	if p.rand1 == nil {
		p.initSource()
		p.rand1 = mrand.New(&p.src)
	}
	if p.rand2 == nil {
		p.initSource()
		p.rand2 = mrand2.New(&p.src)
	}
}

// rnd2 returns the execution's math/rand/v2 generator, telling d of the
// draw. Token held.
//
//go:norace
func (p *programInputs) rnd2(d drawNoter) *mrand2.Rand {
	d.noteDrawn(ctlRand)
	p.makeRand()
	return p.rand2
}

//go:norace
func (p *programInputs) initSource() {
	if !p.srcInit {
		p.srcInit = true
		p.src.s = p.seed
	}
}

// subSeed is a seed of its own for the n-th use of a purpose (a map range),
// independent of how many values the random source has given.
//
//go:norace
func (p *programInputs) subSeed(n uint64) uint64 { return mix64(p.seed ^ mix64(n+0x5851f42d4c957f2d)) }

// drawnState is what a draw of source c, the clock at now, tells the
// state signature: what it draws next follows from where the source and
// the clock stand, and the control; Go's own draws (the control off in
// free) from nothing the signature knows.
//
//go:norace
func (p *programInputs) drawnState(c control, now time.Duration, free control) uint64 {
	v := mix(mix(p.src.s, p.mapRanges), uint64(now)) ^ uint64(c)
	if free&c != 0 {
		v = uint64(time.Now().UnixNano())
	}
	return v
}

// markDrawn notes that the program read a value of source c that no
// decision chose (execution.noteDrawn).
//
//go:norace
func (p *programInputs) markDrawn(c control) {
	for {
		old := p.drew.Load()
		if old&uint32(c) != 0 || p.drew.CompareAndSwap(old, old|uint32(c)) {
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
// in the execution's source log, in detailed mode, at decision step. Lock
// held.
//
//go:norace
func (p *programInputs) observe(step int, kind, what string, value uint64, controlled bool) {
	if p.detailed && len(p.sources) < replay.MaxSources {
		p.observeAt(step, kind, what, callerPos(), value, controlled)
	}
}

// observeAt is observe for a read at pos. Lock held.
//
//go:norace
func (p *programInputs) observeAt(step int, kind, what, pos string, value uint64, controlled bool) {
	if !p.detailed || len(p.sources) >= replay.MaxSources {
		return
	}
	v := ""
	if value != 0 {
		v = strconv.FormatUint(value, 16)
	}
	p.sources = append(p.sources, replay.Source{Kind: kind, What: what, Pos: pos, Step: step, Value: v, Controlled: controlled})
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
