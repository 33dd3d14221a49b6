// Package cover is the fixture of the coverage report: Everything performs
// an operation of each kind in straight-line code, so that one schedule
// reaches every scheduling point of this file.
package cover

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Counter is incremented under its mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

// Everything performs one operation of each kind.
func Everything() int32 {
	var mu sync.Mutex
	var rw sync.RWMutex
	var wg sync.WaitGroup
	var once sync.Once
	var a atomic.Int32
	var m int32
	ch := make(chan int32, 1)
	cond := sync.NewCond(&mu)
	mu.Lock()
	mu.Unlock()
	rw.RLock()
	rw.RUnlock()
	rw.Lock()
	rw.Unlock()
	once.Do(func() {})
	atomic.AddInt32(&m, 1)
	a.Add(1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		ch <- a.Load()
	}()
	wg.Wait()
	if len(ch) != 1 {
		return -1
	}
	select {
	case v := <-ch:
		atomic.AddInt32(&m, v)
	default:
	}
	close(ch)
	time.Sleep(time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	<-ctx.Done()
	mu.Lock()
	cond.Broadcast()
	mu.Unlock()
	return atomic.LoadInt32(&m)
}
