package wire

import (
	"testing"
	"time"
)

// TestRunShare: what is left of a run budget is shared equally among the
// tests left, never below MinRunShare.
func TestRunShare(t *testing.T) {
	for _, c := range []struct {
		left  time.Duration
		tests int
		want  time.Duration
	}{
		{time.Minute, 6, 10 * time.Second},
		{time.Minute, 1, time.Minute},
		{time.Minute, 0, time.Minute},
		{0, 5, MinRunShare},
		{-time.Second, 5, MinRunShare},
	} {
		if got := RunShare(c.left, c.tests); got != c.want {
			t.Errorf("RunShare(%v, %d) = %v, want %v", c.left, c.tests, got, c.want)
		}
	}
}
