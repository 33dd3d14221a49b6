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
	if saw && Warn() {
		t.Error("the goroutine set the flag before the test looked")
	}
}
