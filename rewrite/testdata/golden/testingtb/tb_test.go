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

// env embeds *testing.T: its Cleanup and Log are the test's.
type env struct {
	*testing.T
	name string
}

func TestEmbedded(t *testing.T) {
	e := &env{T: t, name: "e"}
	e.Cleanup(func() {})
	e.Logf("env %s", e.name)
	e.Run("sub", func(t *testing.T) {})
}

func BenchmarkB(b *testing.B) {
	b.Cleanup(func() {})
	b.Log("bench")
}

func TestContexts(t *testing.T) {
	ctx := t.Context()
	done := make(chan struct{})
	go func() {
		<-ctx.Done()
		close(done)
	}()
	t.Cleanup(func() { <-done })
	var tb testing.TB = t
	_ = tb.Context()
	e := &env{T: t}
	_ = e.Context()
}
