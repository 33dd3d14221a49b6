package timerdrain

import "testing"

func TestCallWithPrefetch(t *testing.T) {
	s := NewServer()
	s.Prefetch("warm")
	v, err := s.Call("main", 10*ServiceTime)
	s.Close()
	if err != nil || v != "v:main" {
		t.Errorf("Call = %q, %v; want v:main, nil", v, err)
	}
}
