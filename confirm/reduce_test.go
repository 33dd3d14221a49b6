package confirm

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestShrink checks the search for fewer holds on predicates whose
// answer is known: it finds the holds a bug needs, within its tries, and
// never returns a subset that did not work.
func TestShrink(t *testing.T) {
	for _, c := range []struct {
		n     int
		need  []int
		tries int
		want  []int // nil: any subset that works, smaller than n
	}{
		{n: 1787, need: []int{1200}, tries: 24, want: []int{1200}},
		{n: 8, need: []int{0, 7}, tries: 30, want: []int{0, 7}},
		{n: 16, need: []int{3, 4, 5}, tries: 40, want: []int{3, 4, 5}},
		{n: 1787, need: []int{10, 900}, tries: 12},
		{n: 4, need: []int{0, 1, 2, 3}, tries: 20, want: []int{0, 1, 2, 3}},
	} {
		calls := 0
		works := func(keep []int) bool {
			calls++
			if !slices.IsSorted(keep) {
				t.Errorf("n=%d: works called with unsorted %v", c.n, keep)
			}
			for _, k := range c.need {
				if _, ok := slices.BinarySearch(keep, k); !ok {
					return false
				}
			}
			return true
		}
		got := shrink(c.n, works, c.tries)
		if calls > c.tries {
			t.Errorf("n=%d need %v: %d calls, more than the %d tries", c.n, c.need, calls, c.tries)
		}
		if !works(got) {
			t.Errorf("n=%d need %v: returned %v, which does not work", c.n, c.need, got)
		}
		if c.want != nil && !slices.Equal(got, c.want) {
			t.Errorf("n=%d need %v in %d tries: got %v, want %v", c.n, c.need, c.tries, got, c.want)
		}
		if c.want == nil && len(got) >= c.n {
			t.Errorf("n=%d need %v in %d tries: nothing removed", c.n, c.need, c.tries)
		}
	}
}

// TestReduce confirms abba's deadlock with its one needed hold among
// harmless ones (sleeps where the test's goroutine reads the balances, after
// the transfers), as a long schedule gives: the confirmation that comes
// back holds fewer, the needed one among them, and still fails the same
// way.
func TestReduce(t *testing.T) {
	needGo(t)
	tr, lay := abbaTrace(t, "testdata/abba")
	x, err := expectation(tr)
	if err != nil {
		t.Fatal(err)
	}
	c := &confirmer{opts: Options{Layout: lay, Runs: 3, Timeout: 2 * time.Second, Hows: []How{Sleep}, ReduceTries: 12},
		t: tr, x: x, test: "TestOppositeTransfers", tmp: t.TempDir(), fs: newFiles()}
	c.opts.defaults()
	needed := Plan(tr, false)[0]
	var holds []Hold
	for i := 0; i < 7; i++ {
		h := needed
		h.At.Stack = []Frame{{Func: needed.At.Stack[1].Func, File: "abba_test.go", Line: 15}}
		h.At.N = i // the same line, passes that never come: still harmless
		holds = append(holds, h)
		if i == 4 {
			holds = append(holds, needed)
		}
	}
	best := c.attempt(context.Background(), holds, Sleep)
	if best.Err != "" || best.Same == 0 {
		t.Fatalf("all %d holds: %v", len(holds), best.Attempt)
	}
	got, tried := c.reduce(context.Background(), best)
	if len(got.holds) >= len(holds) || !slices.ContainsFunc(got.holds, func(h Hold) bool { return h.At.Pos() == "abba.go:35" }) {
		t.Errorf("reduced to %d holds %v, want fewer than %d with abba.go:35's (tried %v)", len(got.holds), positions(got.holds), len(holds), tried)
	}
	if got.Same == 0 || len(tried) == 0 || len(tried) > 12 {
		t.Errorf("reduced: %v after %d attempts (at most 12)", got.Attempt, len(tried))
	}
}

func positions(hs []Hold) []string {
	var out []string
	for _, h := range hs {
		out = append(out, fmt.Sprintf("%s#%d", h.At.Pos(), h.At.N))
	}
	return out
}
