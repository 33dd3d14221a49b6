package tickerrange

import (
	"testing"
	"time"
)

func TestStartStop(t *testing.T) {
	h := Start(time.Millisecond)
	h.Stop()
	before := h.Beats()
	if after := h.Beats(); after < before {
		t.Errorf("beats went from %d to %d", before, after)
	}
}
