package testingtb

import "testing"

// TB is an interface of the package that *testing.T implements.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Cleanup(func())
}

// Logger is not implemented by *testing.T: its Error is left alone.
type Logger interface {
	Error(msg string, kv ...any)
}

// Suite embeds testing.TB.
type Suite struct {
	testing.TB
	name string
}

func Start(tb testing.TB, stop chan struct{}) {
	tb.Helper()
	tb.Cleanup(func() { close(stop) })
	tb.Log("started")
	tb.Logf("started %d", 1)
	tb.Errorf("x %d", 1)
	if false {
		tb.Fatal("no")
		tb.Skip()
	}
}

func Own(t TB, l Logger) {
	t.Cleanup(func() {})
	t.Errorf("own %d", 2)
	l.Error("not a test", "k", 1)
}

func (s *Suite) Check() {
	s.Cleanup(func() {})
	s.Errorf("suite %s", s.name)
}

func Generic[T testing.TB](t T) {
	t.Cleanup(func() {})
	t.Log("generic")
}

func Bench(b *testing.B) {
	b.Cleanup(func() {})
	b.Log("bench")
}
