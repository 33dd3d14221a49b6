package spinshutdown

import "testing"

func TestShutdownWithRequestInFlight(t *testing.T) {
	var s Server
	errc := make(chan error, 1)
	go func() { errc <- s.Handle() }()
	s.Shutdown()
	err := <-errc
	if err == nil && s.Served() != 1 {
		t.Errorf("request succeeded but served = %d", s.Served())
	}
	if err != nil && err != ErrShuttingDown {
		t.Errorf("Handle = %v", err)
	}
}
