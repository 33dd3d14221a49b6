package runtime

import "sync"

// Goroutines reused across executions. A test runs thousands of times, and
// each execution started its goroutines anew: for a short test, making a
// goroutine, growing its stack to the depth of the runtime's hooks and its
// exit cost as much as a tenth of the schedule. So a goroutine the runtime
// starts for an execution (spawn's, and the test goroutine of runOnce) is
// a worker: when its function returns, it waits in the pool for the
// function of a goroutine of a later execution, with the stack it grew.
//
// What the program sees stays Go's:
//   - never within one execution: a worker is handed only to an execution
//     other than the last one it ran for, so that a goroutine of the
//     program never runs in the goroutine of another goroutine of the same
//     execution (under -race, Go's detector would see the first's accesses
//     happen before the second's). Executions run one after the other, and
//     everything one did happens before the next anyway (finishMain);
//   - a goroutine that ends by runtime.Goexit (t.FailNow, the teardown of
//     an execution) exits as it did: only a return puts it back; so does
//     one that locked its thread (runtime.LockOSThread, LockOSThread): Go
//     ends the thread of a goroutine that exits locked to it, and the next
//     goroutine must not inherit what was done to it;
//   - what the program reads of its goroutines (NumGoroutine, Stack) is
//     the execution's view (sources.go, stacks.go): the workers are left
//     out of the count at an execution's start (workers), and their
//     frames are the runtime's, which a dump leaves out.
//
// The pool's own lock is hidden from Go's race detector (raceDisable): a
// goroutine that ended and one its execution starts next both take it, and
// Go's detector would take that for an order between them, which the
// program does not have (the differential check of cmd/gosct,
// TestRaceDiffPatterns, lost races that way).
//
// The pool keeps at most maxIdleWorkers: a test that starts many
// goroutines once does not keep them all.
const maxIdleWorkers = 64

type worker struct {
	job  chan workerJob // buffered(1)
	last uint64         // the seq of the execution it last ran a goroutine of
}

type workerJob struct {
	seq uint64 // the execution's (execution.seq)
	f   func() bool
}

var (
	workersMu sync.Mutex
	// idle[:nidle] wait for a job, the last to return last. An array,
	// not a slice: append and copy would show Go's race detector the
	// accesses that the hidden lock orders.
	idle  [maxIdleWorkers]*worker
	nidle int
	// alive counts the worker goroutines.
	alive int
	// execSeq numbers the executions of the process (execution.seq).
	execSeq uint64
)

// nextExecSeq numbers a new execution.
//
//go:norace
func nextExecSeq() uint64 {
	raceDisable()
	workersMu.Lock()
	execSeq++
	n := execSeq
	workersMu.Unlock()
	raceEnable()
	return n
}

// workers is how many worker goroutines there are. Between executions
// none runs a goroutine of the program: they wait in the pool, or are on
// their way there or to their end.
//
//go:norace
func workers() int {
	raceDisable()
	workersMu.Lock()
	n := alive
	workersMu.Unlock()
	raceEnable()
	return n
}

// startGoroutine runs f in a goroutine of its own for e: an idle worker
// that ran for another execution, or a new one. f reports whether its
// goroutine may be reused.
//
//go:norace
func startGoroutine(e *execution, f func() bool) {
	seq := e.seq
	raceDisable()
	workersMu.Lock()
	for i := nidle - 1; i >= 0; i-- {
		w := idle[i]
		if w.last == seq {
			continue
		}
		for ; i < nidle-1; i++ {
			idle[i] = idle[i+1]
		}
		nidle--
		idle[nidle] = nil
		workersMu.Unlock()
		raceEnable()
		// A channel send, not hidden from Go's race detector: what the
		// parent did before the go statement happens before f, as it
		// would for a new goroutine.
		w.job <- workerJob{seq, f}
		return
	}
	alive++
	workersMu.Unlock()
	raceEnable()
	go workerLoop(workerJob{seq, f})
}

// workerLoop runs jobs until one does not return (runtime.Goexit ends the
// goroutine), says its goroutine is not to be reused, or the pool is full.
//
//go:norace
func workerLoop(j workerJob) {
	growStack()
	defer workerGone()
	w := &worker{job: make(chan workerJob, 1)}
	for {
		w.last = j.seq
		reuse := j.f()
		j = workerJob{} // nothing of the execution stays reachable from here
		raceDisable()
		workersMu.Lock()
		if !reuse || nidle == maxIdleWorkers {
			workersMu.Unlock()
			raceEnable()
			return
		}
		idle[nidle] = w
		nidle++
		workersMu.Unlock()
		raceEnable()
		j = <-w.job
	}
}

// workerGone counts a worker's end. A function of its own, not a deferred
// literal: //go:norace does not reach a literal's body.
//
//go:norace
func workerGone() {
	raceDisable()
	workersMu.Lock()
	alive--
	workersMu.Unlock()
	raceEnable()
}
