// Package conc exercises every rewritten construct; its tests must pass
// the same instrumented (in pass-through) as not.
package conc

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

var total int

type Counter struct {
	sync.Mutex
	n int
}

func (c *Counter) Inc() {
	c.Lock()
	defer c.Unlock()
	c.n++
}

// Sum adds 1..n in n goroutines under a mutex.
func Sum(n int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total = 0
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func(v int) {
			defer wg.Done()
			mu.Lock()
			total += v
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	return total
}

// Pipeline passes values through a chain of goroutines.
func Pipeline(vals []int) []int {
	in := make(chan int)
	out := make(chan int, len(vals))
	go func() {
		for _, v := range vals {
			in <- v
		}
		close(in)
	}()
	go func() {
		for v := range in {
			out <- v * 2
		}
		close(out)
	}()
	var res []int
	for v := range out {
		res = append(res, v)
	}
	return res
}

type myErr struct{ msg string }

func (e *myErr) Error() string { return e.msg }

// FirstError selects among results, errors and a timeout.
func FirstError(ctx context.Context) error {
	errs := make(chan error, 1)
	res := make(chan int)
	go func() { errs <- &myErr{"boom"} }()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		select {
		case v, ok := <-res:
			if !ok {
				return nil
			}
			_ = v
		case err := <-errs:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Atomics counts with atomics from many goroutines.
func Atomics(n int) (int64, int32) {
	var a atomic.Int64
	var b int32
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Go(func() {
			a.Add(1)
			atomic.AddInt32(&b, 2)
		})
	}
	wg.Wait()
	return a.Load(), atomic.LoadInt32(&b)
}

// Once runs f once however often it is called concurrently.
func Once(n int) int {
	var once sync.Once
	calls := 0
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			once.Do(func() { calls++ })
		}()
	}
	wg.Wait()
	return calls
}

// Cond waits for a condition signalled by another goroutine.
func Cond() bool {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	go func() {
		time.Sleep(time.Millisecond)
		mu.Lock()
		ready = true
		c.Broadcast()
		mu.Unlock()
	}()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	return ready
}

// ArgsInParent checks that go evaluates the arguments in the parent.
func ArgsInParent() int {
	x := 1
	got := make(chan int)
	go func(v int) { got <- v }(x)
	x = 2
	return <-got
}

// MethodValue uses mu.Lock as a value.
func MethodValue() bool {
	var mu sync.Mutex
	lock, unlock := mu.Lock, mu.Unlock
	lock()
	locked := !mu.TryLock()
	unlock()
	return locked && mu.TryLock()
}

// Timers uses a timer, a ticker and AfterFunc.
func Timers() int {
	t := time.NewTimer(time.Hour)
	stopped := t.Stop()
	tk := time.NewTicker(time.Millisecond)
	<-tk.C
	tk.Stop()
	done := make(chan struct{})
	time.AfterFunc(time.Millisecond, func() { close(done) })
	<-done
	if stopped && time.Since(time.Now()) < time.Hour {
		return 3
	}
	return 0
}

// Nonblocking tries channels with default cases, including a nil one.
func Nonblocking() (int, error) {
	var nilch chan int
	ch := make(chan int, 1)
	n := 0
	select {
	case <-nilch:
		n = -1
	default:
		n = 1
	}
	select {
	case ch <- 5:
	default:
		return 0, errors.New("full")
	}
	n += len(ch)
Outer:
	for {
		select {
		case v := <-ch:
			n += v
			continue Outer
		default:
			break Outer
		}
	}
	return n, nil
}

// Generic sends and receives through type parameters.
func Generic[T any](vals ...T) []T {
	ch := make(chan T, len(vals))
	for _, v := range vals {
		ch <- v
	}
	close(ch)
	var out []T
	for v := range ch {
		out = append(out, v)
	}
	return out
}

var order = 1

func bump() int { order = 10; return 1 }

// EvalOrder: gc calls bump before it loads order.
func EvalOrder() int {
	order = 1
	order += bump()
	return order
}
