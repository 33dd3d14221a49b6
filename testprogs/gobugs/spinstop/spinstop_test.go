package spinstop

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestMeasure(t *testing.T) {
	var calls atomic.Int64
	n, ok := Measure(time.Microsecond, func() { calls.Add(1) })
	if ok && int64(n) != calls.Load() {
		t.Errorf("reported %d calls, made %d", n, calls.Load())
	}
}
