package strategies

import "testing"

// Every strategy decides value points, and the systematic ones enumerate
// them: a program drawing two coins has 4 schedules.
func TestValuePoints(t *testing.T) {
	for _, name := range Names() {
		if name == "pairwise" {
			// Enumerates values only inside a changed fragment
			// (pairwise_test.go); outside, it takes the first.
			continue
		}
		s, err := New(name, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[[2]int]bool{}
		for run := 0; run < 200 && s.NewExecution(); run++ {
			var got [2]int
			for i := range got {
				p := Point{Kind: Value, Current: 0, Choices: []int{0, 1}}
				k := s.Next(&p)
				if k < 0 || k > 1 {
					t.Fatalf("%s: Next = %d for two values", name, k)
				}
				got[i] = k
			}
			seen[got] = true
		}
		if len(seen) != 4 {
			t.Errorf("%s: %d of the 4 pairs of values in 200 executions", name, len(seen))
		}
		st, ok := s.(Stateless)
		systematic := name == "dfs" || name == "pb" || name == "db" || name == "dfsrb" || name == "dpor"
		if name != "portfolio" && systematic != (ok && st.Stateless()) {
			t.Errorf("%s: Stateless = %v", name, ok && st.Stateless())
		}
	}
}

func TestKindOf(t *testing.T) {
	for _, k := range []Kind{Goroutine, Case, Value} {
		if got, ok := KindOf(k.String()); !ok || got != k {
			t.Errorf("KindOf(%q) = %v, %v", k.String(), got, ok)
		}
	}
	if _, ok := KindOf("thread"); ok {
		t.Error("KindOf(thread) is known")
	}
}
