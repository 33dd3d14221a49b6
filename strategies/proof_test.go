package strategies

import (
	"strings"
	"testing"
)

// A search that ran out of schedules is a proof only when nothing was left
// out: a bound that cut schedules makes it "exhausted within bound N",
// never "exhausted" alone.
func TestProofsOfBoundedSearches(t *testing.T) {
	for _, c := range []struct {
		name   string
		s      Strategy
		proved bool
		status string
	}{
		{"dfs", NewDFS(Options{}), true, "exhausted: "},
		{"pb bound 0", NewPB(Options{Bound: -1}), false, "exhausted within bound 0: "},
		{"db bound 1", NewDB(Options{Bound: 1}), false, "exhausted within bound 1: "},
		{"pb bound 6", NewPB(Options{Bound: 6}), true, "exhausted: "},
		{"dpor", NewDPOR(Options{}), true, "exhausted: "},
		{"dpor bound 0", NewDPOR(Options{Bound: -1}), false, "exhausted within bound 0: "},
		{"dpor bound 6", NewDPOR(Options{Bound: 6}), true, "exhausted: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Two threads writing one variable twice: the orders
			// where they alternate need preemptions.
			p := &prog{nvars: 1, goOn: true, threads: [][]op{{create("go", 1, 2)},
				{set("x=1", 0, 1), set("x=2", 0, 2)}, {set("x=3", 0, 3), set("x=4", 0, 4)}}}
			exhaust(t, p, c.s, 100000)
			st := c.s.(Status).Status()
			proved := c.s.(Prover).Proved()
			if proved != c.proved || !strings.HasPrefix(st, c.status) || strings.Contains(st, "not a proof") == c.proved {
				t.Errorf("proved %v, status %q; want proved %v, status %q...", proved, st, c.proved, c.status)
			}
		})
	}
}

func TestNotAProof(t *testing.T) {
	for _, c := range []struct{ in, why, want string }{
		{"exhausted: 3 schedules", "x", "searched to the end: 3 schedules; not a proof: x"},
		{"exhausted within bound 1: 3 schedules", "x", "exhausted within bound 1: 3 schedules; not a proof: x"},
		{"exhausted within bound 1: 3 schedules; not a proof: x", "y", "exhausted within bound 1: 3 schedules; not a proof: x; y"},
	} {
		if got := NotAProof(c.in, c.why); got != c.want {
			t.Errorf("NotAProof(%q, %q) = %q, want %q", c.in, c.why, got, c.want)
		}
	}
}

// dpor's proof holds only if no execution read a value no decision chose
// (End.Values); the portfolio then does not stop on it.
func TestDPORProofNeedsDecidedValues(t *testing.T) {
	p := writers(2)
	p.goOn, p.values = true, true
	d := NewDPOR(Options{})
	exhaust(t, p, d, 1000)
	if d.Proved() || !strings.Contains(d.Status(), "not a proof: ") || strings.HasPrefix(d.Status(), "exhausted") {
		t.Errorf("proved %v, status %q", d.Proved(), d.Status())
	}
}
