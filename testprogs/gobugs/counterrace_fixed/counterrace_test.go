package counterrace

import "testing"

func TestConcurrentRecord(t *testing.T) {
	var s Stats
	done := make(chan struct{})
	go func() {
		s.Record(true)
		close(done)
	}()
	s.Record(false)
	<-done
	if hits, errs := s.Snapshot(); hits != 2 || errs != 1 {
		t.Errorf("hits=%d errors=%d, want 2 and 1", hits, errs)
	}
}
