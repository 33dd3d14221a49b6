package runtime

import (
	"runtime"
	"sort"
	"strings"
	"unsafe"

	"github.com/gosct/gosct/internal/wire"
)

// Coverage of an exploration (wire.Config.Coverage): which scheduling
// points its schedules reached, and in which orders the operations of
// conflicting points met. A passing run then shows whether it exercised
// the code the user cares about.
//
// A point is a source position (file:line of the user's code that called
// the hook) with the operation performed there. It is reached when a
// goroutine arrives at it (yield, or block for operations that block
// without yielding first, such as a sleep).
//
// Two operations conflict when they are on the same object, come from
// different goroutines, and at least one changes it: swapping them may
// change what the program does. The object and the kind of access are
// those of the synchronization and memory events the runtime already
// computes for the race detector (detector_edges.go, detector.go):
//   - a memory access reads or writes its address; an atomic load reads,
//     any other atomic operation writes;
//   - a mutex is written by each Lock (its unlocks are not accesses: an
//     unlock followed by another goroutine's lock is the only order the
//     two can take, while the order of two Locks is the interleaving);
//     an RWMutex is written by Lock and read by RLock;
//   - a WaitGroup is written by Add and Done, read by Wait; a Once
//     written by Do; a Cond written by Wait, Signal and Broadcast;
//   - a channel has two sides: a send writes the sending side, a receive
//     the receiving side, a close both; so the orders counted are those of
//     two sends, of two receives, of a close and a send or a receive (a
//     send is always before the receive of its value).
//
// An ordered pair a→b of points is recorded in a schedule when b's access
// to an object comes right after a's in the object's history, conflicts
// with it, and is another goroutine's: b reads and a is the last write;
// b writes and a is one of the reads since the last write, or the last
// write when none read it (the dependences between adjacent accesses, as
// Maple's iRoots and DPOR's races take them). The report says, for each
// unordered pair, in how many schedules each order happened: a pair seen
// in one order only is an interleaving the exploration did not try (or
// one the program cannot take).
//
// The cost is paid only with coverage on: every scheduling point records
// its caller with runtime.Callers (resolved once per program counter),
// and every access updates the object's last accesses.

// coverage accumulates one test function's coverage across its schedules.
// It is used with the execution's lock held.
type coverage struct {
	// pcs caches the resolution of a program counter: its position's
	// index in positions, or -1 for a frame of the runtime (look at the
	// caller), -2 for no position.
	pcs       rmap[uintptr, int32]
	positions []string
	// posIndex interns the positions by a hash of their text (index +
	// 1): two program counters of one line are one point.
	posIndex rmap[uint64, int32]
	// ids numbers the points: position index << 8 | operation.
	ids    rmap[uint64, int32]
	points []covPoint
	// pairs counts the ordered pairs of points: a << 32 | b.
	pairs    rmap[uint64, int32]
	pairList []covPair
	// gen numbers the executions, to count each point and pair once per
	// schedule; objs are the current execution's objects; curPoints and
	// curPairs what it reached, counted when it is committed (not the
	// schedules a part of a sharded search runs for another part).
	gen       uint32
	objs      rmap[uintptr, *covObject]
	curPoints []int32
	curPairs  []int32
	// sigs are the signatures of the sets of ordered pairs the
	// committed schedules had (commit).
	sigs map[uint64]struct{}
}

type covPoint struct {
	pos       int32
	op        opKind
	schedules int
	stamp     uint32
}

type covPair struct {
	a, b      int32
	schedules int
	stamp     uint32
}

// covAccess is one access to an object: by goroutine g, at point p, in
// g's operation number seq.
type covAccess struct {
	g, p  int32
	seq   uint32
	write bool
}

// covObject is what an object's next access conflicts with: its last
// write and the reads since.
type covObject struct {
	w     covAccess
	hasW  bool
	reads []covAccess
	// last is the last access, to count an operation that touches the
	// object twice (an atomic's acquire and release) once.
	last covAccess
}

// covPCs are the return addresses of a scheduling point's goroutine,
// captured before the lock: the hook and its caller, which is the user's
// code for most hooks. runtime.Callers costs by the frame, so it takes
// two; position takes the whole stack when they are not enough (a hook
// calling another: LockerLock, Lock).
type covPCs struct {
	pcs [2]uintptr
	n   int
}

// capture records the caller's caller and its caller.
//
//go:norace
//go:noinline
func (c *covPCs) capture() {
	c.n = runtime.Callers(3, c.pcs[:])
}

// begin starts counting a new execution.
//
//go:norace
func (c *coverage) begin() {
	c.gen++
	c.objs = rmap[uintptr, *covObject]{}
	c.curPoints, c.curPairs = c.curPoints[:0], c.curPairs[:0]
}

// commit counts the execution begun last among the schedules, and says
// what it reached that no schedule counted before, for the saturation
// rule (wire.Saturation): fresh points and ordered pairs, and whether its
// set of ordered pairs is one no schedule had (the same pairs in a new
// combination).
//
//go:norace
func (c *coverage) commit() (fresh int, newSet bool) {
	for _, i := range c.curPoints {
		if c.points[i].schedules == 0 {
			fresh++
		}
		c.points[i].schedules++
	}
	// The set's signature: a sum of the pairs' mixed indexes, which
	// does not depend on the order they were met in.
	var sig uint64
	for _, i := range c.curPairs {
		if c.pairList[i].schedules == 0 {
			fresh++
		}
		c.pairList[i].schedules++
		sig += splitmix(uint64(i))
	}
	if len(c.curPairs) > 0 {
		if c.sigs == nil {
			c.sigs = map[uint64]struct{}{}
		}
		if _, ok := c.sigs[sig]; !ok {
			c.sigs[sig] = struct{}{}
			newSet = true
		}
	}
	c.curPoints, c.curPairs = c.curPoints[:0], c.curPairs[:0]
	return fresh, newSet
}

// splitmix is splitmix64's finalizer: a well-mixed hash of x.
//
//go:norace
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// position is the index of the user position of pcs, -1 when none.
//
//go:norace
func (c *coverage) position(pcs *covPCs) int32 {
	if i, ok := c.first(pcs.pcs[:pcs.n]); ok || pcs.n < len(pcs.pcs) {
		return i
	}
	var all [32]uintptr
	n := runtime.Callers(2, all[:])
	i, _ := c.first(all[:n])
	return i
}

// first is the position index of the first of pcs that has a user frame;
// ok is false when every frame of pcs is the runtime's (the caller may
// look further).
//
//go:norace
func (c *coverage) first(pcs []uintptr) (int32, bool) {
	for _, pc := range pcs {
		v := c.pcs.get(pc)
		if v == 0 {
			v = c.resolve(pc)
			c.pcs.put(pc, v)
		}
		switch {
		case v > 0:
			return v - 1, true
		case v == -2:
			return -1, true
		}
	}
	return -1, false
}

// resolve finds the first frame of user code in pc's frames (inlined
// calls expand to several): its position's index + 1, -1 when every frame
// is the runtime's, -2 when pc has no position.
//
//go:norace
func (c *coverage) resolve(pc uintptr) int32 {
	frames := runtime.CallersFrames([]uintptr{pc})
	any := false
	for {
		f, more := frames.Next()
		if f.File != "" {
			any = true
			// The runtime's own tests count as user code, as for
			// the race detector (accessPC).
			if !isRuntimeFrame(f.Function) || strings.HasSuffix(f.File, "_test.go") {
				return c.intern(f.File + ":" + itoa(f.Line))
			}
		}
		if !more {
			break
		}
	}
	if !any {
		return -2
	}
	return -1
}

// intern returns the index + 1 of position pos.
//
//go:norace
func (c *coverage) intern(pos string) int32 {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(pos); i++ {
		h = (h ^ uint64(pos[i])) * 1099511628211
	}
	if i := c.posIndex.get(h); i > 0 && c.positions[i-1] == pos {
		return i
	}
	c.positions = append(c.positions, pos)
	i := int32(len(c.positions))
	c.posIndex.put(h, i)
	return i
}

// reach records that g arrived at the scheduling point of op whose stack
// is pcs. Lock held.
//
//go:norace
func (c *coverage) reach(g *goroutine, op opKind, pcs *covPCs) {
	c.reachAt(g, op, c.position(pcs))
}

// reachAt records that g arrived at the point of op at the position of
// index pos (-1: none). Lock held.
//
//go:norace
func (c *coverage) reachAt(g *goroutine, op opKind, pos int32) {
	g.covSeq++
	if pos < 0 {
		g.covPoint = 0
		return
	}
	key := uint64(pos)<<8 | uint64(op)
	id := c.ids.get(key) - 1
	if id < 0 {
		c.points = append(c.points, covPoint{pos: pos, op: op})
		id = int32(len(c.points) - 1)
		c.ids.put(key, id+1)
	}
	if p := &c.points[id]; p.stamp != c.gen {
		p.stamp = c.gen
		c.curPoints = append(c.curPoints, id)
	}
	g.covPoint = id + 1
}

// touch records an access of g's pending operation to the object key.
// Lock held.
//
//go:norace
func (c *coverage) touch(g *goroutine, key uintptr, write bool) {
	if g == nil || g.covPoint == 0 || key == 0 {
		return
	}
	a := covAccess{g: int32(g.id), p: g.covPoint - 1, seq: g.covSeq, write: write}
	o := c.objs.get(key)
	if o == nil {
		o = &covObject{}
		c.objs.put(key, o)
	} else if o.last.g == a.g && o.last.seq == a.seq {
		return
	}
	o.last = a
	if !write {
		if o.hasW && o.w.g != a.g {
			c.pair(o.w.p, a.p)
		}
		for _, r := range o.reads {
			if r.g == a.g && r.p == a.p {
				return
			}
		}
		o.reads = append(o.reads, a)
		return
	}
	// A write follows the reads since the last write, or the last write
	// when none read it.
	if len(o.reads) == 0 && o.hasW && o.w.g != a.g {
		c.pair(o.w.p, a.p)
	}
	for _, r := range o.reads {
		if r.g != a.g {
			c.pair(r.p, a.p)
		}
	}
	o.w, o.hasW, o.reads = a, true, o.reads[:0]
}

// pair counts the ordered pair a→b in this execution. Lock held.
//
//go:norace
func (c *coverage) pair(a, b int32) {
	key := uint64(uint32(a))<<32 | uint64(uint32(b))
	i := c.pairs.get(key) - 1
	if i < 0 {
		c.pairList = append(c.pairList, covPair{a: a, b: b})
		i = int32(len(c.pairList) - 1)
		c.pairs.put(key, i+1)
	}
	if p := &c.pairList[i]; p.stamp != c.gen {
		p.stamp = c.gen
		c.curPairs = append(c.curPairs, i)
	}
}

// report is the coverage as the results file carries it.
//
//go:norace
func (c *coverage) report() *wire.Coverage {
	out := &wire.Coverage{Points: make([]wire.CoveredPoint, len(c.points))}
	for i, p := range c.points {
		out.Points[i] = wire.CoveredPoint{Pos: c.positions[p.pos], Op: p.op.String(), Schedules: p.schedules}
	}
	for _, p := range c.pairList {
		out.Pairs = append(out.Pairs, wire.CoveredPair{A: int(p.a), B: int(p.b), Schedules: p.schedules})
	}
	sort.Slice(out.Pairs, func(i, j int) bool {
		if out.Pairs[i].A != out.Pairs[j].A {
			return out.Pairs[i].A < out.Pairs[j].A
		}
		return out.Pairs[i].B < out.Pairs[j].B
	})
	return out
}

// The taps: the synchronization events of detector_edges.go call these
// with the object and the goroutine whose operation it is, while the
// execution runs with coverage on (detector.counting); memory accesses
// touch their address (execution.access).

// sync is an acquire (acquire true) or a release of the sync object p
// by g. Which counts, and as what access, depends on g's operation: an
// unlock's release is not an access; a release by a goroutine whose
// operation already released another object is not its operation's (a
// Once releasing itself after f, whose last operation was f's). Lock
// held.
//
//go:norace
func (c *coverage) sync(g *goroutine, p unsafe.Pointer, acquire bool) {
	if g == nil {
		return
	}
	var write bool
	switch g.op {
	case opLock, opRWLock, opOnce, opCondWait:
		if !acquire {
			return
		}
		write = true
	case opRLock, opWait:
		if !acquire {
			return
		}
	case opWaitGroup, opSignal, opBroadcast:
		if acquire {
			return
		}
		if g.covRelSeq == g.covSeq && g.covRelObj != uintptr(p) {
			return
		}
		g.covRelSeq, g.covRelObj = g.covSeq, uintptr(p)
		write = true
	default:
		return
	}
	c.touch(g, uintptr(p), write)
}

// channel is an operation of g on channel k: send (the sending side),
// receive, or close (both). Lock held.
//
//go:norace
func (c *coverage) channel(g *goroutine, k unsafe.Pointer, send, recv bool) {
	if g == nil || k == nil {
		return
	}
	if send {
		c.touch(g, uintptr(k), true)
	}
	if recv {
		// The receiving side: the channel's address + 1, which no
		// other object has (a channel is word-aligned).
		c.touch(g, uintptr(k)+1, true)
	}
}
