package runtime

import (
	"testing"
	"time"
)

// The hooks of linknamed clocks read the virtual clock: across a virtual
// hour's sleep each advances by an hour (and the little work around it),
// never more than Since measures around them, and time.now's parts are
// one instant of Now's.
func TestLinkedClocksAreVirtual(t *testing.T) {
	check(t, "random", 20, func(t *testing.T) {
		start := Now()
		s0, ns0, m0 := LinkTimeNow()
		n0 := LinkNanotime()
		ws0, wns0 := LinkWalltime()
		Sleep(time.Hour)
		s1, ns1, m1 := LinkTimeNow()
		n1 := LinkNanotime()
		ws1, wns1 := LinkWalltime()
		since := Since(start)
		for _, c := range []struct {
			name string
			d    time.Duration
		}{
			{"time.now's wall", time.Unix(s1, int64(ns1)).Sub(time.Unix(s0, int64(ns0)))},
			{"time.now's mono", time.Duration(m1 - m0)},
			{"runtime.nanotime", time.Duration(n1 - n0)},
			{"runtime.walltime", time.Unix(ws1, int64(wns1)).Sub(time.Unix(ws0, int64(wns0)))},
		} {
			if !within(c.d, time.Hour) || c.d >= since {
				t.Errorf("%s: %v across a sleep of 1h (Since: %v)", c.name, c.d, since)
			}
		}
		if w := time.Unix(s0, int64(ns0)); !w.After(start) || w.Sub(start) > slack || m0 != w.UnixNano() {
			t.Errorf("time.now = %v (mono %d), Now before it %v", w, m0, start)
		}
	})
}
