package onceper

import "testing"

// TestLookFirst assumes its goroutine has not run when it looks, which Go
// makes true almost always; when the goroutine runs first, it fails, once
// per process (Warn).
func TestLookFirst(t *testing.T) {
	var f Flag
	done := make(chan struct{})
	go func() {
		f.Set()
		close(done)
	}()
	saw := f.IsSet()
	<-done
	if saw && Warn("first") {
		t.Error("the goroutine set the flag before the test looked")
	}
}

// TestLookLate is TestLookFirst with a goroutine that sets three flags
// in turn, all of which must be set when the test looks: a schedule that
// shows it is rarer, found after the first.
func TestLookLate(t *testing.T) {
	var a, b, c Flag
	done := make(chan struct{})
	go func() {
		a.Set()
		b.Set()
		c.Set()
		close(done)
	}()
	saw := c.IsSet()
	<-done
	if saw && Warn("late") {
		t.Error("the goroutine set every flag before the test looked")
	}
}
