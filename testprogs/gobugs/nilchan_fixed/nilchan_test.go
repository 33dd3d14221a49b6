package nilchan

import (
	"errors"
	"testing"
)

func TestRunCountsFailures(t *testing.T) {
	var r Runner
	ok := func() error { return nil }
	bad := func() error { return errors.New("boom") }
	r.Run([]func() error{ok, bad, ok})
	if got := r.Failed(); got != 1 {
		t.Errorf("Failed = %d, want 1", got)
	}
}
