package synced

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Each test writes a variable from two goroutines, ordered by one kind of
// synchronization: Go's race detector must report nothing.

var x, y int

func TestMutex(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			x++
			mu.Unlock()
		}()
	}
	wg.Wait()
	x++
}

func TestRWMutex(t *testing.T) {
	var mu sync.RWMutex
	done := make(chan bool)
	go func() {
		mu.Lock()
		x++
		mu.Unlock()
		done <- true
	}()
	mu.RLock()
	_ = x
	mu.RUnlock()
	mu.Lock()
	x++
	mu.Unlock()
	<-done
}

func TestUnbuffered(t *testing.T) {
	c := make(chan int)
	go func() {
		x = 1
		c <- 1
		<-c
		x = 3
		c <- 3
	}()
	<-c
	x = 2
	c <- 2
	<-c
	_ = x
}

func TestUnbufferedRecvFirst(t *testing.T) {
	c := make(chan int)
	done := make(chan bool)
	go func() {
		<-c
		x = 2
		done <- true
	}()
	x = 1
	c <- 1
	<-done
}

func TestBuffered(t *testing.T) {
	c := make(chan int, 2)
	go func() {
		x = 1
		c <- 1
		c <- 2
	}()
	<-c
	x = 2
	<-c
}

func TestBufferedFull(t *testing.T) {
	c := make(chan int, 1)
	go func() {
		c <- 0
		x = 1
		c <- 1 // blocks until the first receive: moved into the buffer by the receiver
	}()
	<-c
	<-c
	x = 2
}

func TestClose(t *testing.T) {
	c := make(chan struct{})
	go func() {
		x = 1
		close(c)
	}()
	<-c
	x = 2
}

func TestRangeClose(t *testing.T) {
	c := make(chan int)
	go func() {
		for i := 0; i < 3; i++ {
			c <- i
		}
		x = 1
		close(c)
	}()
	for range c {
	}
	x = 2
}

func TestSelect(t *testing.T) {
	a, b := make(chan int), make(chan int, 1)
	go func() {
		x = 1
		select {
		case a <- 1:
		case b <- 1:
		}
	}()
	select {
	case <-a:
	case <-b:
	}
	x = 2
}

func TestWaitGroup(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); x = 1 }()

	go func() { defer wg.Done(); y = 1 }()
	wg.Wait()
	x, y = 2, 2
}

func TestOnce(t *testing.T) {
	var once sync.Once
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { x = 1 })
			_ = x
		}()
	}
	once.Do(func() { x = 1 })
	_ = x
	wg.Wait()
}

func TestCond(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	go func() {
		x = 1
		mu.Lock()
		ready = true
		mu.Unlock()
		c.Signal()
	}()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	x = 2
}

func TestAtomic(t *testing.T) {
	var flag atomic.Bool
	go func() {
		x = 1
		flag.Store(true)
	}()
	for !flag.Load() {
	}
	x = 2
}

func TestGoStatement(t *testing.T) {
	x = 1
	done := make(chan bool)
	go func() {
		x = 2
		done <- true
	}()
	<-done
}

func TestAfterFunc(t *testing.T) {
	done := make(chan bool)
	x = 1
	time.AfterFunc(time.Millisecond, func() {
		x = 2
		done <- true
	})
	<-done
	x = 3
}

func TestTimer(t *testing.T) {
	tm := time.NewTimer(time.Millisecond)
	done := make(chan bool)
	x = 1
	go func() {
		<-tm.C
		x = 2
		done <- true
	}()
	<-done
	x = 3
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		x = 1
		cancel()
	}()
	<-ctx.Done()
	x = 2
}

func TestContextTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	var mu sync.Mutex
	done := make(chan bool)
	go func() {
		<-ctx.Done()
		mu.Lock()
		x = 1
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	x = 2
	mu.Unlock()
	<-ctx.Done()
	mu.Lock()
	x = 3
	mu.Unlock()
	<-done
}

func TestSubtest(t *testing.T) {
	x = 1
	t.Run("sub", func(t *testing.T) {
		x = 2
		done := make(chan bool)
		go func() {
			x = 3
			done <- true
		}()
		<-done
	})
	x = 4
}

func TestBroadcast(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			for !ready {
				c.Wait()
			}
			_ = x
			mu.Unlock()
		}()
	}
	x = 1
	mu.Lock()
	ready = true
	mu.Unlock()
	c.Broadcast()
	wg.Wait()
}

func TestTryLock(t *testing.T) {
	var mu sync.Mutex
	done := make(chan bool)
	go func() {
		for !mu.TryLock() {
		}
		x = 1
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	x = 2
	mu.Unlock()
	<-done
}

func TestSelectDefault(t *testing.T) {
	c := make(chan int, 1)
	go func() {
		x = 1
		c <- 1
	}()
	for {
		select {
		case <-c:
			x = 2
			return
		default:
		}
	}
}
