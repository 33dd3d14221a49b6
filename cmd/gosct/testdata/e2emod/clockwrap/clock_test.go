package clockwrap

import (
	"sync/atomic"
	"testing"
	"time"
)

// A timer stopped through the interface does not fire; reset, it does.
func TestTimerThroughInterface(t *testing.T) {
	var fired atomic.Int32
	tm := AfterFunc(time.Second, func() { fired.Add(1) })
	if !tm.Stop() {
		t.Error("Stop of a pending timer returned false")
	}
	time.Sleep(2 * time.Second)
	if n := fired.Load(); n != 0 {
		t.Errorf("a stopped timer fired %d times", n)
	}
	if tm.Reset(time.Second) {
		t.Error("Reset of a stopped timer returned true")
	}
	time.Sleep(2 * time.Second)
	if n := fired.Load(); n != 1 {
		t.Errorf("a reset timer fired %d times, want 1", n)
	}
}

// A ticker stopped through the interface ticks no more.
func TestTickerThroughInterface(t *testing.T) {
	tk := NewTicker(time.Second)
	<-tk.Chan()
	tk.Stop()
	select {
	case <-tk.Chan():
		t.Error("a stopped ticker ticked")
	case <-time.After(3 * time.Second):
	}
}
