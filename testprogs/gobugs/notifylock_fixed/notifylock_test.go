package notifylock

import "testing"

func TestWatchWhilePutting(t *testing.T) {
	s := NewStore()
	done := make(chan struct{})
	go func() {
		s.Put("v1")
		close(done)
	}()
	rev, lag := s.Next()
	<-done
	if rev != 1 {
		t.Errorf("Next = revision %d, want 1", rev)
	}
	if lag < 0 || lag > 1 {
		t.Errorf("lag = %d, want 0 or 1", lag)
	}
}
