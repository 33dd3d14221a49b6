package runtime

import (
	"context"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The calibration of the virtual clock's costs (costs.go): what plain Go,
// uncontrolled, takes on this machine for each kind of step, as the
// minimum over many samples. The minimum, not the mean: an execution
// charges each step what Go takes at best, so virtual time never passes
// faster than Go's can (a timeout fires only where Go's could) and never
// slower (two reads of the clock a sleep apart are never closer than Go's).
// The minimum is also what a loaded machine disturbs least: a sample the
// machine delayed is not the minimum.
//
//	go test -run '^$' -bench GoCost -benchtime 20000x ./runtime
//
// Each sub-benchmark reports min-ns/op, the figure docs/runtime.md
// ("Time") tabulates and costs.go charges (rounded down). Operations that
// take a few nanoseconds are timed in batches of costBatch, the
// minimum taken over the batches' averages: a lower bound of a batch is
// not a lower bound of one operation, but one operation is below the
// clock's resolution. Latencies (a goroutine's start, a wake-up after a
// timer) are timed one by one.

const costBatch = 100

// minOf runs sample b.N times and reports the smallest result, in
// nanoseconds per operation.
func minOf(b *testing.B, sample func() float64) {
	b.Helper()
	best := math.Inf(1)
	for i := 0; i < b.N; i++ {
		if v := sample(); v < best {
			best = v
		}
	}
	b.ReportMetric(best, "min-ns/op")
}

// batch times costBatch runs of f, per run.
func batch(f func()) float64 {
	t0 := time.Now()
	for i := 0; i < costBatch; i++ {
		f()
	}
	return float64(time.Since(t0)) / costBatch
}

// nowCost is the minimum cost of time.Now, subtracted from latencies
// measured between two reads of the clock.
func nowCost() float64 {
	best := math.Inf(1)
	for i := 0; i < 1000; i++ {
		best = min(best, batch(func() { _ = time.Now() }))
	}
	return best
}

var (
	sinkInt  int64
	sinkWord [64]int64
)

func BenchmarkGoCost(b *testing.B) {
	b.Run("now", func(b *testing.B) {
		minOf(b, func() float64 { return batch(func() { _ = time.Now() }) })
	})
	b.Run("memory", func(b *testing.B) {
		// A load and a store of a word in cache: the rewriter's read and
		// write hooks.
		minOf(b, func() float64 {
			t0 := time.Now()
			for i := 0; i < 64*costBatch; i++ {
				sinkWord[i&63] += sinkWord[(i+1)&63]
			}
			return float64(time.Since(t0)) / (2 * 64 * costBatch)
		})
	})
	b.Run("atomic-load", func(b *testing.B) {
		var a atomic.Int64
		minOf(b, func() float64 { return batch(func() { sinkInt += a.Load() }) })
	})
	b.Run("atomic", func(b *testing.B) {
		var a atomic.Int64
		minOf(b, func() float64 { return batch(func() { a.Add(1) }) })
	})
	b.Run("lock-unlock", func(b *testing.B) {
		var mu sync.Mutex
		minOf(b, func() float64 { return batch(func() { mu.Lock(); mu.Unlock() }) / 2 })
	})
	b.Run("rlock-runlock", func(b *testing.B) {
		var mu sync.RWMutex
		minOf(b, func() float64 { return batch(func() { mu.RLock(); mu.RUnlock() }) / 2 })
	})
	b.Run("rwlock-rwunlock", func(b *testing.B) {
		var mu sync.RWMutex
		minOf(b, func() float64 { return batch(func() { mu.Lock(); mu.Unlock() }) / 2 })
	})
	b.Run("chan-send-recv", func(b *testing.B) {
		// A buffered send and receive that never block: a channel
		// operation at its fastest.
		c := make(chan int, 1)
		minOf(b, func() float64 { return batch(func() { c <- 1; <-c }) / 2 })
	})
	b.Run("select", func(b *testing.B) {
		// A two-case select whose receive is ready, less the send that
		// readied it.
		c, d := make(chan int, 1), make(chan int)
		send := math.Inf(1)
		for i := 0; i < 1000; i++ {
			send = min(send, batch(func() { c <- 1; <-c })/2)
		}
		minOf(b, func() float64 {
			return batch(func() {
				c <- 1
				select {
				case <-c:
				case <-d:
				}
			}) - send
		})
	})
	b.Run("chan-close", func(b *testing.B) {
		cs := make([]chan int, costBatch)
		minOf(b, func() float64 {
			for i := range cs {
				cs[i] = make(chan int)
			}
			i := 0
			return batch(func() { close(cs[i]); i++ })
		})
	})
	b.Run("chan-len", func(b *testing.B) {
		c := make(chan int, 4)
		minOf(b, func() float64 { return batch(func() { sinkInt += int64(len(c)) }) })
	})
	b.Run("waitgroup", func(b *testing.B) {
		var wg sync.WaitGroup
		minOf(b, func() float64 { return batch(func() { wg.Add(1); wg.Done() }) / 2 })
	})
	b.Run("waitgroup-wait", func(b *testing.B) {
		// Wait on a zero counter: it returns at once.
		var wg sync.WaitGroup
		minOf(b, func() float64 { return batch(wg.Wait) })
	})
	b.Run("once", func(b *testing.B) {
		// Do on a done Once: its fast path.
		var o sync.Once
		o.Do(func() {})
		minOf(b, func() float64 { return batch(func() { o.Do(func() {}) }) })
	})
	b.Run("cond-signal", func(b *testing.B) {
		// Signal with no waiter.
		c := sync.NewCond(&sync.Mutex{})
		minOf(b, func() float64 { return batch(c.Signal) })
	})
	b.Run("cond-broadcast", func(b *testing.B) {
		c := sync.NewCond(&sync.Mutex{})
		minOf(b, func() float64 { return batch(c.Broadcast) })
	})
	b.Run("gosched", func(b *testing.B) {
		minOf(b, func() float64 { return batch(runtime.Gosched) })
	})
	b.Run("numgoroutine", func(b *testing.B) {
		minOf(b, func() float64 { return batch(func() { sinkInt += int64(runtime.NumGoroutine()) }) })
	})
	b.Run("stack", func(b *testing.B) {
		buf := make([]byte, 1024)
		minOf(b, func() float64 { return batch(func() { runtime.Stack(buf, false) }) })
	})
	b.Run("cancel", func(b *testing.B) {
		// A context's cancel function, no goroutine waiting.
		cancels := make([]context.CancelFunc, costBatch)
		minOf(b, func() float64 {
			for i := range cancels {
				_, cancels[i] = context.WithCancel(context.Background())
			}
			i := 0
			return batch(func() { cancels[i](); i++ })
		})
	})
	b.Run("timer-arm-stop", func(b *testing.B) {
		// NewTimer and Stop, per call: arming a timer, or stopping or
		// resetting one.
		minOf(b, func() float64 { return batch(func() { time.NewTimer(time.Hour).Stop() }) / 2 })
	})
	b.Run("go", func(b *testing.B) {
		// The go statement, in the goroutine that runs it.
		var wg sync.WaitGroup
		f := func() { wg.Done() }
		minOf(b, func() float64 {
			wg.Add(costBatch)
			t0 := time.Now()
			for i := 0; i < costBatch; i++ {
				go f()
			}
			d := float64(time.Since(t0)) / costBatch
			wg.Wait()
			return d
		})
	})
	now := nowCost()
	b.Run("start", func(b *testing.B) {
		// From before a go statement to the new goroutine's first
		// statement; the creator waits for it at once, so the new
		// goroutine runs next on the creator's P: Go's fastest start.
		done := make(chan int64)
		minOf(b, func() float64 {
			t0 := time.Now()
			go func() { done <- int64(time.Since(t0)) }()
			return float64(<-done) - now
		})
	})
	for _, d := range []time.Duration{time.Microsecond, 100 * time.Microsecond, time.Millisecond} {
		b.Run("sleep-wake-"+d.String(), func(b *testing.B) {
			// How late a sleep of d ends, from the call to the
			// statement after it.
			minOf(b, func() float64 {
				t0 := time.Now()
				time.Sleep(d)
				return float64(time.Since(t0)-d) - now
			})
		})
		b.Run("timer-wake-"+d.String(), func(b *testing.B) {
			// How late a receive from a timer's channel returns.
			minOf(b, func() float64 {
				t0 := time.Now()
				<-time.NewTimer(d).C
				return float64(time.Since(t0)-d) - now
			})
		})
		b.Run("afterfunc-wake-"+d.String(), func(b *testing.B) {
			// How late an AfterFunc's function starts.
			done := make(chan int64)
			minOf(b, func() float64 {
				t0 := time.Now()
				time.AfterFunc(d, func() { done <- int64(time.Since(t0)) })
				return float64(<-done-int64(d)) - now
			})
		})
	}
}
