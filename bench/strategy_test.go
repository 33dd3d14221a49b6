package bench

import (
	"slices"
	"strings"
	"testing"
)

func TestParseStrategies(t *testing.T) {
	st, err := ParseStrategies("random, pct1,pct,dfs,pct3")
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 4 {
		t.Fatalf("got %+v, want pct and pct3 merged", st)
	}
	if s := st[1]; s.Strategy != "pct" || s.Depth != 1 || !s.CountBuggy {
		t.Errorf("pct1 = %+v", s)
	}
	if s := st[2]; s.Name != "pct3" || s.Depth != 3 {
		t.Errorf("pct = %+v", s)
	}
	if s := st[3]; s.Strategy != "dfs" || s.CountBuggy {
		t.Errorf("dfs = %+v", s)
	}
	st, err = ParseStrategies("dfsrb-rb3,dfsrb-portfolio,guided-nowalk")
	if err != nil {
		t.Fatal(err)
	}
	if s := st[0]; s.Strategy != "dfsrb" || s.DFSRB != "rb3" || s.Name != "dfsrb-rb3" {
		t.Errorf("dfsrb-rb3 = %+v", s)
	}
	if s := st[1]; s.Strategy != "dfsrb" || s.DFSRB != "portfolio" {
		t.Errorf("dfsrb-portfolio = %+v", s)
	}
	if s := st[2]; s.Strategy != "guided" || s.Walk != -1 || !s.Guide {
		t.Errorf("guided-nowalk = %+v", s)
	}
	for _, bad := range []string{"", "pct0", "pct1x", "bfs", "dfsrb-rb11", "dfsrb-", "dfsrb-20=pl"} {
		if _, err := ParseStrategies(bad); err == nil {
			t.Errorf("ParseStrategies(%q) succeeded", bad)
		}
	}
	for _, n := range DefaultStrategies() {
		if _, err := ParseStrategy(n); err != nil {
			t.Errorf("default strategy %s: %v", n, err)
		}
	}
}

func TestDefaultStrategies(t *testing.T) {
	got := strings.Join(DefaultStrategies(), ",")
	if !strings.HasPrefix(got, "random,pct1,pct2,pct3,dfs,pb,db,") || !strings.HasSuffix(got, ",portfolio") || !strings.Contains(got, ",dfsrb,") {
		t.Errorf("DefaultStrategies() = %s: want the paper's columns first, every registered strategy, the default last", got)
	}
}

// TestNoColumnForAChange checks that pairwise, which checks a change the
// benchmark does not give, is neither a default column nor accepted: run
// without a change it is one non-preemptive schedule, not a measurement.
func TestNoColumnForAChange(t *testing.T) {
	if slices.Contains(DefaultStrategies(), "pairwise") {
		t.Errorf("DefaultStrategies() = %v: pairwise has no change to check", DefaultStrategies())
	}
	if _, err := ParseStrategies("random,pairwise"); err == nil || !strings.Contains(err.Error(), "--since") {
		t.Errorf("ParseStrategies(random,pairwise): err = %v, want one that says pairwise needs --since", err)
	}
}
