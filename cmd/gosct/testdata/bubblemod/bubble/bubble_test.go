package bubble

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestIdleTimeout: synctest.Test with time. The bubble's clock moves only
// when every goroutine in it is blocked, exactly by the timers' durations.
func TestIdleTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		p := New(time.Minute)
		var n atomic.Int32
		for i := 0; i < 3; i++ {
			p.Submit(func() { n.Add(1) })
		}
		p.Wait()
		if n.Load() != 3 || p.Workers() != 0 {
			t.Fatalf("ran %d tasks, %d workers left", n.Load(), p.Workers())
		}
		if d := time.Since(start); d != time.Minute {
			t.Fatalf("workers exited after %v, want exactly a minute of the bubble's clock", d)
		}
	})
}

// TestWaitSettles: synctest.Wait returns when every other goroutine of
// the bubble is durably blocked: the worker has run its task and waits
// for the next or its idle timer, which has not fired.
func TestWaitSettles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := New(time.Second)
		var ran atomic.Bool
		p.Submit(func() { ran.Store(true) })
		synctest.Wait()
		if !ran.Load() || p.Workers() != 1 {
			t.Fatalf("after Wait: ran %v, %d workers", ran.Load(), p.Workers())
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if p.Workers() != 0 {
			t.Fatalf("after the idle time: %d workers", p.Workers())
		}
	})
}

// TestOutsideBubble uses the pool outside any bubble, beside the tests that
// use one: gosct explores it as usual.
func TestOutsideBubble(t *testing.T) {
	p := New(time.Millisecond)
	done := make(chan bool)
	p.Submit(func() { done <- true })
	<-done
	p.Wait()
}
