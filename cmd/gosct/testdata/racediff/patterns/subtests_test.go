package patterns

import (
	"runtime"
	"testing"
)

// t.Run returns after its subtest has ended, and orders the parent after
// the subtest alone: a goroutine the subtest leaves running races with the
// parent's code after t.Run, even when it ran first.
func TestSubtestLeftoverGoroutine(t *testing.T) {
	x := 0
	done := make(chan struct{})
	t.Run("a", func(t *testing.T) {
		go func() {
			x = 1
			close(done)
		}()
		runtime.Gosched()
	})
	_ = x
	<-done
}

// What a serial subtest wrote, its parent reads after t.Run: no race.
func TestSubtestWriteThenParentRead(t *testing.T) {
	x := 0
	t.Run("a", func(t *testing.T) { x = 1 })
	_ = x
}

// Parallel subtests run beside each other once their parent's function
// has returned: rows of a table that share a variable race.
func TestParallelRowsShareAVariable(t *testing.T) {
	n := 0
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n++
		})
	}
}
