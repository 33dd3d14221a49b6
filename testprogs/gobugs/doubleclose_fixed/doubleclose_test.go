package doubleclose

import "testing"

func TestConcurrentStop(t *testing.T) {
	s := NewServer()
	stopped := make(chan struct{})
	go func() {
		s.Stop()
		close(stopped)
	}()
	s.Stop()
	<-stopped
	select {
	case <-s.Done():
	default:
		t.Error("Done not closed after Stop")
	}
}
