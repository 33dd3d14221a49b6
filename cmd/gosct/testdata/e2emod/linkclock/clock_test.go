package linkclock

import (
	"testing"
	"time"
)

// The linknamed clocks see a sleep, as time.Since does, and agree with
// time.Now: every elapsed time they measure across the sleep is at least
// the sleep and at most what time.Since measures around them.
func TestLinknamedClockSeesSleep(t *testing.T) {
	const d = 50 * time.Millisecond
	start := time.Now()
	w0, m0, n0, t0 := Wall(), Mono(), Nano(), TimeNano()
	time.Sleep(d)
	w1, m1, n1, t1 := Wall(), Mono(), Nano(), TimeNano()
	since := time.Since(start)
	for _, c := range []struct {
		name    string
		elapsed time.Duration
	}{{"time.now's wall", time.Duration(w1 - w0)}, {"time.now's mono", time.Duration(m1 - m0)}, {"runtime.nanotime", time.Duration(n1 - n0)}, {"runtime.nanotime, linknamed in another file", time.Duration(t1 - t0)}} {
		if c.elapsed < d || c.elapsed > since {
			t.Errorf("%s: %v elapsed across a sleep of %v (time.Since: %v)", c.name, c.elapsed, d, since)
		}
	}
	if w0 < start.UnixNano() || w1 > time.Now().UnixNano() {
		t.Errorf("time.now's wall reading is not within time.Now's")
	}
}
