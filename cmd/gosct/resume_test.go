package main

import (
	"fmt"
	"testing"
)

// TestDiedIn: the binary died in the first unreported test after its last
// reported one; unreported tests before that ran without control, and a
// binary that reported none, or none after them, is not placed.
func TestDiedIn(t *testing.T) {
	order := []string{"T1", "T2", "T3", "T4", "T5"}
	for _, c := range []struct {
		done []string
		want death
		ok   bool
	}{
		{[]string{"T1", "T2"}, death{in: "T3", rest: []string{"T4", "T5"}}, true},
		{[]string{"T1", "T3"}, death{in: "T4", rest: []string{"T5"}, skipped: []string{"T2"}}, true},
		{[]string{"T1", "T2", "T3", "T4"}, death{in: "T5"}, true},
		{nil, death{}, false},
		{[]string{"T2", "T5"}, death{}, false},
	} {
		done := map[string]bool{}
		for _, d := range c.done {
			done[d] = true
		}
		got, ok := diedIn(order, done)
		if ok != c.ok || ok && fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("done %v: got %+v, %v; want %+v, %v", c.done, got, ok, c.want, c.ok)
		}
	}
}
