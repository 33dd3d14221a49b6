package testingtb

import "testing"

func TestHelpers(t *testing.T) {
	stop := make(chan struct{})
	Start(t, stop)
	Own(t, nil)
	s := &Suite{TB: t, name: "s"}
	s.Check()
	Generic(t)
	Generic[testing.TB](t)
}
