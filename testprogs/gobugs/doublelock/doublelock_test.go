package doublelock

import "testing"

func TestPutDuringClose(t *testing.T) {
	s := New()
	closed := make(chan struct{})
	go func() {
		s.Close()
		close(closed)
	}()
	err := s.Put("a", 1)
	<-closed
	if err != nil && err != ErrClosed {
		t.Errorf("Put = %v, want nil or ErrClosed", err)
	}
	if s.Stats() == "" {
		t.Error("empty stats")
	}
}
