package configrace

import "testing"

func TestAddrDuringReload(t *testing.T) {
	s := NewServer(Config{Host: "old.example", Port: 80})
	done := make(chan struct{})
	go func() {
		s.Reload(Config{Host: "new.example", Port: 443})
		close(done)
	}()
	addr := s.Addr()
	<-done
	if addr != "old.example:80" && addr != "new.example:443" {
		t.Errorf("Addr = %q, a mix of two configurations", addr)
	}
}
