package fixed

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
// thread is never recorded), run slaveStart itself, then
// wait for the worker (WAIT_FOR_END) and check that every processor has
// finished.
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
	exited.Wait() // WAIT_FOR_END
	if n := g.numFinished; n != nprocs {
		t.Errorf("only %d of %d processors finished when main went on", n, nprocs)
	}
	exited.Wait()
}

// finish counts this processor as finished, under finishLock: the
// unsynchronised increment of the original can lose an update.
func (g *global) finish() {
	g.finishLock.Lock()
	g.numFinished++
	g.finishLock.Unlock()
}
