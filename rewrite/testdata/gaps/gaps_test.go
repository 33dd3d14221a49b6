// Package gaps holds one test per construct the rewriter used to miss;
// TestGapsUnderRealRuntime explores each with the real runtime and checks
// the outcome: a bug where there is one, none where there is none.
package gaps

import (
	"sync"
	"testing"
)

// Lock order inversion through method expressions: a deadlock.
func TestMethodExprDeadlock(t *testing.T) {
	var a, b sync.Mutex
	lock := (*sync.Mutex).Lock
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		lock(&a)
		lock(&b)
		(*sync.Mutex).Unlock(&b)
		(*sync.Mutex).Unlock(&a)
	}()
	go func() {
		defer wg.Done()
		lock(&b)
		lock(&a)
		(*sync.Mutex).Unlock(&a)
		(*sync.Mutex).Unlock(&b)
	}()
	(*sync.WaitGroup).Wait(&wg)
}

func startWorker(tb testing.TB) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		<-stop
		close(done)
	}()
	tb.Cleanup(func() {
		close(stop)
		<-done
	})
}

// A worker stopped in a cleanup registered through testing.TB: no leak,
// no hang.
func TestTBCleanupNoLeak(t *testing.T) {
	startWorker(t)
}

type buf struct{ n int }

var pool = sync.Pool{New: func() any { return new(buf) }}

// Objects handed between goroutines through a pool: no race (a Put
// happens before the Get that returns the object).
func TestPoolNoRace(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := pool.Get().(*buf)
			b.n++
			pool.Put(b)
		}()
	}
	wg.Wait()
}

// A comma-ok map read in an if statement's init, concurrent with a
// write: a race.
func TestCommaOKRace(t *testing.T) {
	m := map[int]int{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		m[1] = 1
	}()
	if v, ok := m[1]; ok {
		_ = v
	}
	wg.Wait()
}

// A range over a map concurrent with a delete: a race.
func TestRangeDeleteRace(t *testing.T) {
	m := map[int]int{1: 1, 2: 2}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		delete(m, 1)
	}()
	n := 0
	for range m {
		n++
	}
	wg.Wait()
}

// A worker that stops when t.Context() is canceled, waited for in a
// cleanup: the context is canceled before the cleanups, so no leak and no
// hang.
func TestContextStopsWorker(t *testing.T) {
	ctx := t.Context()
	done := make(chan struct{})
	go func() {
		<-ctx.Done()
		close(done)
	}()
	t.Cleanup(func() { <-done })
}
