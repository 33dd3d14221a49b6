package linkuse

import (
	"testing"
	"time"

	"example.com/linkclockdep"
)

// A dependency module's linknamed runtime.nanotime sees a sleep, as
// time.Since does.
func TestDependencyClockSeesSleep(t *testing.T) {
	const d = 50 * time.Millisecond
	start := time.Now()
	n0 := linkclockdep.Nano()
	time.Sleep(d)
	n1 := linkclockdep.Nano()
	if e, since := time.Duration(n1-n0), time.Since(start); e < d || e > since {
		t.Errorf("runtime.nanotime: %v elapsed across a sleep of %v (time.Since: %v)", e, d, since)
	}
}
