package mock

import (
	"testing"
	"time"

	"example.com/mockclock"
)

// TestWaitsForSleeper is correct: the test goroutine moves the clock only
// once the taker sleeps on it, and it never needs the limiter's lock while
// the taker holds it. Every schedule passes.
func TestWaitsForSleeper(t *testing.T) {
	c := mockclock.New()
	l := NewLimiter(c, time.Second)
	done := make(chan bool)
	go func() {
		l.Take()
		done <- true
	}()
	c.BlockUntil(1)
	c.Add(time.Second)
	<-done
	if n := l.Taken(); n != 1 {
		t.Errorf("taken %d times, want 1", n)
	}
}

// TestAddUnderLock hangs under go test whenever the taker takes the lock
// first: it sleeps on the mock clock holding the limiter's lock, and the
// test goroutine needs that lock before it calls Add. The whole process
// is then blocked on channels and locks: a deadlock, with the taker in
// the uninstrumented mock.
func TestAddUnderLock(t *testing.T) {
	c := mockclock.New()
	l := NewLimiter(c, time.Second)
	done := make(chan bool)
	go func() {
		l.Take()
		done <- true
	}()
	l.Taken() // the limiter's lock
	c.Add(time.Second)
	<-done
}

// TestSleepForever sleeps on a clock nobody moves, while a background
// goroutine of the library keeps the process busy: gosct cannot tell that
// nothing will ever move the clock, and after its bound the test could not
// complete.
func TestSleepForever(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	mockclock.Ticking(stop)
	c := mockclock.New()
	c.Sleep(time.Second)
}
