package splash2_lu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// nprocs is P, the number of processors of the run: main plus one worker.
const nprocs = 2

// spinBarrier is the BARRIER macro of SCTBench's PARMACS null macros: a
// sense-reversing spin barrier whose count is updated with a
// compare-and-swap loop; both loops yield (sched_yield) while they wait.
type spinBarrier struct {
	count atomic.Int32
	sense atomic.Bool
}

func (b *spinBarrier) wait(p int32) {
	mySense := b.sense.Load()
	var n int32
	for {
		old := b.count.Load()
		n = old + 1
		if b.count.CompareAndSwap(old, n) {
			break
		}
		runtime.Gosched()
	}
	if n == p {
		b.count.Store(0)
		b.sense.Store(!mySense)
		return
	}
	for b.sense.Load() == mySense {
		runtime.Gosched()
	}
}

// Run is the program's main: CREATE one worker running slaveStart (the
// thread is never recorded), run slaveStart itself, and then, since
// WAIT_FOR_END expands to nothing, check that every processor has finished.
// SCTBench added that check; it fails when main gets there before the worker
// has counted itself. The join after the check only keeps the worker from
// outliving the test.
func Run(t testing.TB) {
	g := newGlobal()
	var exited sync.WaitGroup
	exited.Add(nprocs - 1)
	for i := 0; i < nprocs-1; i++ {
		go func() {
			defer exited.Done()
			g.slaveStart()
		}()
	}
	g.slaveStart()
	// WAIT_FOR_END: nothing.
	if n := g.numFinished; n != nprocs {
		t.Errorf("only %d of %d processors finished when main went on", n, nprocs)
	}
	exited.Wait()
}

// finish is the increment SCTBench added at the end of slaveStart, outside
// any lock: a separate read and write.
func (g *global) finish() {
	n := g.numFinished
	g.numFinished = n + 1
}
