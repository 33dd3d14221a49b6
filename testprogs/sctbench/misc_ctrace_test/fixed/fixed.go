// Package fixed is misc.ctrace-test (see the parent directory) with trc_end
// taking the writer semaphore and unlinking the records from the buckets
// before it frees them, so no reader can reach a freed record, and the
// tracing flag atomic (ctrace reads it without a lock: a benign data race
// of the original, not its bug). It must pass in every schedule, with no
// race.
package fixed

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// hashSize is the number of buckets of ctrace's thread table.
const hashSize = 307

// record is one thread's trace record (heap-allocated in C). freed stands
// for free(): any later use of the record panics.
type record struct {
	tid   int
	buf   string
	line  string
	next  *record
	freed bool
}

func (r *record) check() *record {
	if r.freed {
		panic(fmt.Sprintf("ctrace: use of freed trace record of thread %d", r.tid))
	}
	return r
}

// tracer is ctrace's global state.
type tracer struct {
	// trc is tracing enabled (_trc). ctrace reads it without a lock, a
	// data race with trc_end's write that the buggy version keeps; here
	// it is atomic, so that the fixed version has no race at all.
	trc         atomic.Bool
	initialised bool
	out         *strings.Builder // _fp
	outMu       sync.Mutex       // stdio's own lock on _fp

	hash      [hashSize]*record
	hashmutex sync.Mutex
	hashreads int
	hashsem   chan struct{} // a semaphore with initial value 1: the writer lock
}

func newTracer() *tracer {
	tr := &tracer{initialised: true, out: new(strings.Builder)}
	tr.trc.Store(true)
	tr.hashsem = make(chan struct{}, 1)
	tr.hashsem <- struct{}{}
	return tr
}

func (tr *tracer) semWait() { <-tr.hashsem }
func (tr *tracer) semPost() { tr.hashsem <- struct{}{} }

// readEnter and readExit are ctrace's readers' protocol: the first reader in
// takes the writer semaphore, the last one out releases it.
func (tr *tracer) readEnter() {
	tr.hashmutex.Lock()
	if tr.hashreads == 0 {
		tr.semWait()
	}
	tr.hashreads++
	tr.hashmutex.Unlock()
}

func (tr *tracer) readExit() {
	tr.hashmutex.Lock()
	tr.hashreads--
	if tr.hashreads == 0 {
		tr.semPost()
	}
	tr.hashmutex.Unlock()
}

// lookup walks tid's bucket. The bucket may still point at freed records.
func (tr *tracer) lookup(tid int) *record {
	for r := tr.hash[tid%hashSize]; r != nil; r = r.check().next {
		if r.tid == tid {
			return r
		}
	}
	return nil
}

// addThread registers tid (a writer).
func (tr *tracer) addThread(tid int) {
	tr.semWait()
	b := tid % hashSize
	tr.hash[b] = &record{tid: tid, next: tr.hash[b]}
	tr.semPost()
}

// removeThread unlinks and frees tid's record (a writer). It does nothing
// once trc_end has run.
func (tr *tracer) removeThread(tid int) {
	if !tr.initialised {
		return
	}
	tr.semWait()
	b := tid % hashSize
	var prev *record
	for r := tr.hash[b]; r != nil; r = r.check().next {
		if r.tid == tid {
			if prev == nil {
				tr.hash[b] = r.next
			} else {
				prev.next = r.next
			}
			r.freed = true
			break
		}
		prev = r
	}
	tr.semPost()
}

// trace is one tracing macro (TRC_PRINT, TRC_ERROR): check the flag, format
// the message into the caller's record (trc_varargs), then emit the line
// (trc_trace). Each step looks the record up again under the readers'
// protocol, as the library does.
func (tr *tracer) trace(tid int, msg string) {
	if !tr.trc.Load() {
		return
	}
	// trc_varargs
	tr.readEnter()
	r := tr.lookup(tid)
	if r == nil {
		tr.readExit()
		tr.addThread(tid)
		tr.readEnter()
		r = tr.lookup(tid)
	}
	if r != nil {
		r.check().buf = msg
	}
	tr.readExit()

	// trc_trace
	tr.readEnter()
	r = tr.lookup(tid)
	if r != nil {
		r.check().line = fmt.Sprintf("[%d] %s\n", tid, r.buf)
		tr.outMu.Lock()
		tr.out.WriteString(r.line)
		tr.outMu.Unlock()
	}
	tr.readExit()
}

// end is trc_end: switch tracing off, then, as a writer, unlink and free
// every record.
func (tr *tracer) end() {
	tr.trc.Store(false)
	tr.semWait()
	for i := range tr.hash {
		r := tr.hash[i]
		tr.hash[i] = nil
		for ; r != nil; r = r.next {
			r.freed = true
		}
	}
	tr.semPost()
	// The mutex and semaphores are destroyed here in C; that has no effect.
	tr.initialised = false
}

// Run is the test program: main (thread 0) registers itself, starts thread1
// and thread2, traces twice, then joins each thread and removes its record.
func Run() {
	tr := newTracer()
	tr.addThread(0)

	var wg1, wg2 sync.WaitGroup
	wg1.Add(1)
	go func() {
		defer wg1.Done()
		tr.trace(1, "thread1 here")
		tr.end()
	}()
	wg2.Add(1)
	go func() {
		// thread2 calls trc_end only when the argument starts with 'b';
		// SCTBench passes "2", so it does nothing.
		defer wg2.Done()
	}()

	tr.trace(0, "print from main")
	tr.trace(0, "error from main")

	wg1.Wait()
	tr.removeThread(1)
	wg2.Wait()
	tr.removeThread(2)
	tr.trace(0, "return from main")
}
