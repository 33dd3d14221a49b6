package runtime

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Go starts f in a new goroutine: the rewriting of a go statement, with the
// function value and arguments already evaluated by the caller.
//
//go:norace
func Go(f func()) {
	e, me := enter()
	if e == nil {
		go f()
		return
	}
	var pcs [1]uintptr
	// Where Go returns to in its caller: the go statement. Go is not
	// inlined (it has a go statement), so the first return address the
	// frame pointers give is runtime.Callers(2)'s first.
	n, ok := 0, false
	if fpOn {
		n, ok = fpCallers(&pcs[0], 1, fpAvoid[0], fpAvoid[1])
	}
	if !ok || n != 1 {
		runtime.Callers(2, pcs[:])
	}
	e.spawn(me, pcs[0], f)
	// The scheduling point comes after the go statement, not before:
	// that is where the new goroutine may first run, ahead of whatever
	// its parent does next (which may be invisible to the runtime, such
	// as a call into uninstrumented code).
	e.yield(me, opGo)
}

// spawn registers and starts a goroutine of the execution; it runs when the
// strategy first chooses it.
//
//go:norace
func (e *execution) spawn(parent *goroutine, pc uintptr, f func()) {
	e.spawnAs(parent, pc, f, false)
}

//go:norace
func (e *execution) spawnAs(parent *goroutine, pc uintptr, f func(), watcher bool) {
	var pos, stack string
	if e.set.detailed {
		e.own.begin()
		pos, stack = callerWhere()
		e.own.end()
	}
	e.mu.Lock()
	g := e.newGoroutine(parent.id, pc)
	g.watcher = watcher
	if e.set.detailed {
		e.stepLog.spawned(parent, g, pos, stack, len(e.trail), e.gs)
	}
	e.race.fork(parent, g)
	e.mu.Unlock()
	startGoroutine(e, func() bool {
		e.run(g, f)
		return !g.lockedThread
	})
}

// spawnWatcher is spawn for a goroutine the runtime starts on behalf of
// the standard library (where Go starts one of its own): never reported as
// leaked.
//
//go:norace
func (e *execution) spawnWatcher(parent *goroutine, pc uintptr, f func()) {
	e.spawnAs(parent, pc, f, true)
}

// Gosched yields: a scheduling point at which the caller gives way, as
// runtime.Gosched does. PCT lowers the caller's priority.
//
//go:norace
func Gosched() {
	e, me := enter()
	if e == nil {
		runtime.Gosched()
		return
	}
	e.yield(me, opYield)
}

// run is the body of every goroutine the execution creates.
//
//go:norace
func (e *execution) run(g *goroutine, f func()) {
	e.mu.Lock()
	g.goid = goid()
	g.gp = getg()
	e.byGoid.put(g.goid, g)
	e.mu.Unlock()
	returned := false
	defer func() { e.exit(g, recover(), returned) }()
	if !e.park(g) {
		return
	}
	callFunc(f)
	returned = true
}

// exit ends g: it returned, panicked, or called runtime.Goexit (directly,
// through t.FailNow, or because the execution was torn down).
//
//go:norace
func (e *execution) exit(g *goroutine, r any, returned bool) {
	var stack []byte
	if r != nil {
		stack = debug.Stack()
	}
	goRaceReleaseMerge(unsafe.Pointer(&e.tsanEnd)) // see finishMain
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setState(g, gDone)
	if e.over {
		dropZombie(g.goid)
		return
	}
	if e.set.detailed && !g.aborted && !e.aborting {
		e.stepLog.exited(g, r != nil, len(e.trail), e.gs)
	}
	if g.aborted {
		e.waitAbort--
		if e.waitAbort == 0 && e.allExited != nil {
			close(e.allExited)
		}
		return
	}
	if e.aborting {
		return
	}
	switch {
	case r != nil:
		e.abortLocked(g, e.oracle.panicked(g, g == e.main, r, stack))
		return
	case !returned && e.t.Failed():
		e.abortLocked(g, e.oracle.goexit(g, debug.Stack()))
		return
	}
	if e.cur.Load() == g {
		e.handOff(g)
	}
}

// Goroutines left over from an execution that was torn down while they ran
// uncontrolled code stop at their next hook: the execution's model of its
// objects is gone, and their operations would otherwise go to the real
// objects, beside the model of the next execution or the other leftovers'
// real operations (two goroutines in one mutex), as no Go program can.
// enter looks them up, also between executions.
var (
	zombies  sync.Map // goid -> zombieKind
	nzombies atomic.Int64
)

// zombieKind is how a leftover goroutine stops.
type zombieKind uint8

const (
	notZombie zombieKind = iota
	// zombieExit: a goroutine the execution started exits
	// (runtime.Goexit, its deferred calls running; hooks in them end it
	// again).
	zombieExit
	// zombiePark: a subtest's goroutine is parked for good. Its
	// runtime.Goexit would have testing fail its completed parent, which
	// panics and ends the test binary (see dropLatePanic).
	zombiePark
)

//go:norace
func addZombie(id int64, k zombieKind) {
	if _, loaded := zombies.Swap(id, k); !loaded {
		nzombies.Add(1)
	}
}

//go:norace
func dropZombie(id int64) {
	if _, ok := zombies.LoadAndDelete(id); ok {
		nzombies.Add(-1)
	}
}

//go:norace
func zombieOf(id int64) zombieKind {
	if k, ok := zombies.Load(id); ok {
		return k.(zombieKind)
	}
	return notZombie
}

//go:norace
func isZombie(id int64) bool { return zombieOf(id) != notZombie }

// stopZombie stops the calling goroutine, a leftover of kind k; it stays
// a zombie, so hooks in its deferred calls end it too, until it has
// exited (see exit).
//
//go:norace
func stopZombie(k zombieKind) {
	if k == zombiePark {
		parkLeftover()
	}
	if leftoverStopped != nil {
		leftoverStopped()
	}
	goexit()
}

// parkLeftover parks the calling goroutine, left over by an ended
// execution, for good (a zombie, which idle's look at the process's
// goroutines leaves out).
//
//go:norace
func parkLeftover() {
	addZombie(goid(), zombiePark)
	if leftoverStopped != nil {
		leftoverStopped()
	}
	select {}
}

// goexit ends the calling goroutine, running its deferred calls; hooks they
// call pass through or end it again.
//
//go:norace
func goexit() { runtime.Goexit() }

// leftoverStopped, when set (tests), is told of each leftover goroutine
// stopped at its hook.
var leftoverStopped func()
