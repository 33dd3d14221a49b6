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

// TestStrategyVariants checks the columns that are variants of a strategy,
// which ParseStrategy finds by the options the strategy reads
// (strategies.Info), and the words of its errors.
func TestStrategyVariants(t *testing.T) {
	for name, want := range map[string]Strategy{
		"dpor-states":        {Name: "dpor-states", Strategy: "dpor", States: true},
		"portfolio-unguided": {Name: "portfolio-unguided", Strategy: "portfolio"},
		"portfolio":          {Name: "portfolio", Strategy: "portfolio", Guide: true},
		"guided":             {Name: "guided", Strategy: "guided", Guide: true},
		"pct2":               {Name: "pct2", Strategy: "pct", Depth: 2, CountBuggy: true},
	} {
		if got, err := ParseStrategy(name); err != nil || got != want {
			t.Errorf("ParseStrategy(%s) = %+v, %v; want %+v", name, got, err, want)
		}
	}
	for name, want := range map[string]string{
		"bfs":              `unknown strategy "bfs" (known: db, dfs, dfsrb, dpor, guided, pairwise, pb, pct, portfolio, random, and pctD for PCT with depth D)`,
		"portfolio-nowalk": `unknown strategy "portfolio-nowalk" (known: db, dfs, dfsrb, dpor, guided, pairwise, pb, pct, portfolio, random, and pctD for PCT with depth D)`,
		"dfsrb-rb11":       `unknown strategy "dfsrb-rb11": dfsrb-NAME wants a named configuration (rb1 to rb10, portfolio)`,
	} {
		if _, err := ParseStrategy(name); err == nil || err.Error() != want {
			t.Errorf("ParseStrategy(%s): %v, want %q", name, err, want)
		}
	}
	if got := strings.Join(DefaultStrategies(), ","); !strings.Contains(got, ",dpor,dpor-states,") || strings.Contains(got, ",pct,") {
		t.Errorf("DefaultStrategies() = %s: want dpor-states after dpor, pct only as pct1..pct3", got)
	}
}
