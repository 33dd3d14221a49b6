package runtime

import (
	"testing"
	"time"
)

// detachedNow is how many goroutines of the current execution the
// scheduler counts as running uncontrolled code.
func detachedNow(t *testing.T) int {
	t.Helper()
	e := active.Load()
	if e == nil {
		t.Fatal("not inside an execution")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ndetached
}

// A goroutine waiting in t.Run for its subtest cannot come back before the
// subtest ends. Counted as detached, it made the scheduler wait in real
// time (pollGrace) at every virtual-clock jump inside nested subtests: a
// pool test of sourcegraph/conc with 1000 one-millisecond sleeps took 35 s
// per schedule.
func TestRunParentNotDetachedWhileSubtestRuns(t *testing.T) {
	check(t, "random", 3, func(t *testing.T) {
		Run(t, "outer", func(t *testing.T) {
			Run(t, "inner", func(t *testing.T) {
				if n := detachedNow(t); n != 0 {
					t.Errorf("inside nested subtests: %d detached goroutines, want 0", n)
				}
				done := Chan(make(chan struct{}))
				for i := 0; i < 3; i++ {
					Go(func() {
						Sleep(time.Millisecond)
						Send(done, struct{}{})
					})
				}
				for i := 0; i < 3; i++ {
					Recv(done)
				}
			})
			if n := detachedNow(t); n != 0 {
				t.Errorf("back from a subtest: %d detached goroutines, want 0", n)
			}
		})
	})
}
