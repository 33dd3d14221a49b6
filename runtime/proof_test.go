package runtime

import (
	"strings"
	"testing"
)

// A search that ran out of schedules is a proof only if no value the
// program read was drawn rather than decided: dfs draws the same in every
// execution, so a bug that needs another value is missed (nondet/timenow,
// randjitter were "exhausted, all passed" under some seeds).
func TestProofNeedsDecidedValues(t *testing.T) {
	for _, c := range []struct {
		name string
		body func(t *testing.T)
		why  string // "" for a proof
	}{
		{"no value", func(t *testing.T) {
			var x int
			Go(func() { Store(&x, 1) })
			_ = Load(&x)
		}, ""},
		{"small draw (a decision)", func(t *testing.T) { _ = RandIntn(3) }, ""},
		{"small map (a decision)", func(t *testing.T) {
			for it := MapRange(map[int]int{1: 1, 2: 2, 3: 3}); ; {
				if _, _, ok := it.Next(); !ok {
					break
				}
			}
		}, ""},
		{"clock", func(t *testing.T) { _ = Now().UnixMilli() }, "the clock: time.Now"},
		{"large draw", func(t *testing.T) { _ = RandInt63() }, "math/rand draws"},
		{"random bytes", func(t *testing.T) { b := make([]byte, 4); _, _ = CryptoRead(b) }, "random bytes"},
		{"large map", func(t *testing.T) {
			for it := MapRange(map[int]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}); ; {
				if _, _, ok := it.Next(); !ok {
					break
				}
			}
		}, "the order of a range over a map"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "no value" {
				skipUnderRace(t) // the goroutine's store races with the load on purpose
			}
			x := check(t, "dfs", 100000, c.body)
			if !x.exhausted {
				t.Fatalf("dfs did not exhaust the test in %d schedules", x.schedules)
			}
			st, unproved, why := x.verdict("exhausted: 1 schedules")
			switch {
			case c.why == "" && unproved:
				t.Errorf("not a proof (%s): %s", why, st)
			case c.why != "" && (!unproved || !strings.Contains(why, c.why) || strings.HasPrefix(st, "exhausted")):
				t.Errorf("unproved %v, why %q, status %q; want not a proof for %q", unproved, why, st, c.why)
			}
		})
	}
}

// dpor learns the same from the end of each execution (strategies.End).
func TestDPORProofNeedsDecidedValues(t *testing.T) {
	x := check(t, "dpor", 100000, func(t *testing.T) { _ = Now().UnixMilli() })
	p, ok := x.strat.(interface{ Proved() bool })
	if !x.exhausted || !ok || p.Proved() {
		t.Errorf("dpor on a test reading the clock: exhausted %v, proved %v", x.exhausted, ok && p.Proved())
	}
	st := x.strat.(interface{ Status() string }).Status()
	if st, unproved, why := x.verdict(st); !unproved || !strings.Contains(why, "values") || strings.HasPrefix(st, "exhausted") {
		t.Errorf("verdict: unproved %v, %q, status %q", unproved, why, st)
	}
}
