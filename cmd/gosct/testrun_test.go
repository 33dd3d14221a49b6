package main

import (
	"reflect"
	"testing"
	"time"

	"github.com/gosct/gosct/internal/wire"
	"github.com/gosct/gosct/rewrite"
)

func testRunOf(t *testing.T, args []string, pkgs ...*rewrite.Package) *testRun {
	t.Helper()
	o, err := parseTest(args)
	if err != nil {
		t.Fatal(err)
	}
	return newTestRun(o, &rewrite.Build{Packages: pkgs}, nil)
}

func TestTestRunDivide(t *testing.T) {
	a := &rewrite.Package{ImportPath: "m/a", Tests: []string{"TestA1", "TestA2", "TestSkip"}}
	b := &rewrite.Package{ImportPath: "m/b", Tests: []string{"TestB1"}}
	// Three selected tests for two machines: by tests, dealt in turn.
	r := testRunOf(t, []string{"--shard", "2/2", "--seed", "1", "--", "-skip", "TestSkip"}, a, b)
	if err := r.divide(); err != nil {
		t.Fatal(err)
	}
	if r.o.by != "tests" || !reflect.DeepEqual(r.testsOf(a), []string{"TestA2"}) || r.testsOf(b) != nil {
		t.Errorf("by %s: a %q, b %q; want by tests, a [TestA2], b none", r.o.by, r.testsOf(a), r.testsOf(b))
	}
	if r.byRange() {
		t.Errorf("by tests is not by range")
	}
	// More machines than tests: each test's schedules.
	r = testRunOf(t, []string{"--shard", "1/8", "--seed", "1"}, a, b)
	if err := r.divide(); err != nil {
		t.Fatal(err)
	}
	if r.o.by != "schedules" || !r.byRange() || len(r.testsOf(a)) != 3 {
		t.Errorf("by %s, range %v, a %q; want every test's schedules", r.o.by, r.byRange(), r.testsOf(a))
	}
	// dfsrb divides by neither range nor tree.
	r = testRunOf(t, []string{"--shard", "1/8", "--seed", "1", "--strategy", "dfsrb", "--shard-by", "schedules"}, a, b)
	if err := r.divide(); err == nil {
		t.Errorf("dfsrb divided by schedules")
	}
}

func TestTestRunSkipPackage(t *testing.T) {
	r := testRunOf(t, []string{"--run", "TestA"})
	r.since = &sinceRun{unaffected: map[string]bool{"m/u": true}}
	for _, c := range []struct {
		pkg            *rewrite.Package
		tests          []string
		status, detail string
		skip           bool
	}{
		{&rewrite.Package{ImportPath: "m/u", Tests: []string{"TestA"}}, []string{"TestA"}, "ok", "[not run: the change cannot reach its tests]", true},
		{&rewrite.Package{ImportPath: "m/none"}, nil, "?", "[no test files]", true},
		{&rewrite.Package{ImportPath: "m/other", Tests: []string{"TestB"}}, nil, "ok", "[no tests to run]", true},
		{&rewrite.Package{ImportPath: "m/shard", Tests: []string{"TestA"}}, nil, "", "", true},
		{&rewrite.Package{ImportPath: "m/run", Tests: []string{"TestA"}}, []string{"TestA"}, "", "", false},
	} {
		status, detail, skip := r.skipPackage(c.pkg, c.tests)
		if status != c.status || detail != c.detail || skip != c.skip {
			t.Errorf("%s: %q %q %v, want %q %q %v", c.pkg.ImportPath, status, detail, skip, c.status, c.detail, c.skip)
		}
	}
}

func TestTestRunKeepRegression(t *testing.T) {
	pkg := &rewrite.Package{ImportPath: "m/a", Tests: []string{"TestA", "TestB"}}
	r := testRunOf(t, []string{"--shard", "2/2", "--seed", "1"}, pkg)
	r.o.by = "tests"
	keep := r.keepRegression(pkg, []string{"TestB"})
	if keep("TestA") || !keep("TestB") || keep("TestGone") {
		t.Errorf("shard 2 by tests: keeps TestA %v, TestB %v, TestGone %v; want its own tests only, no warning", keep("TestA"), keep("TestB"), keep("TestGone"))
	}
	r.o.by = "schedules"
	if keep = r.keepRegression(pkg, []string{"TestA", "TestB"}); keep("TestA") {
		t.Errorf("shard 2 by schedules replays a regression trace: shard 1 does")
	}
}

func TestTestRunConfig(t *testing.T) {
	pkg := &rewrite.Package{ImportPath: "m/a", Tests: []string{"TestA"}}
	r := testRunOf(t, []string{"--strategy", "pct", "--seed", "7", "--depth", "2", "--schedules", "40", "--shard", "1/4", "--shard-by", "schedules", "--budget", "3s"}, pkg)
	if err := r.divide(); err != nil {
		t.Fatal(err)
	}
	r.traceDir, r.stateDir = "/traces", "/state"
	r.since = &sinceRun{path: "/frags"}
	cfg := r.config(pkg, "/guide", true)
	if cfg.Mode != "explore" || cfg.Strategy != "pct" || cfg.Seed != 7 || cfg.Depth != 2 || cfg.Schedules != 40 || cfg.BudgetNS != int64(3*time.Second) ||
		cfg.TraceDir != "/traces/m_a" || cfg.State != "/state" || !cfg.Deps || cfg.Guide != "/guide" || cfg.Fragments != "/frags" ||
		cfg.Shard != 1 || cfg.Shards != 4 || cfg.Total != 40 {
		t.Errorf("config = %+v", cfg)
	}
	cfg.RunBudgetNS, cfg.RunTests = int64(10*time.Second), 5
	l := r.processLimits(&cfg)
	if l.Budget != 2*time.Second || l.Schedules != 40 || cfg.RunBudgetNS != 0 || cfg.RunTests != 0 {
		t.Errorf("per-process limits %+v, cfg run budget %d/%d: want the run's share, 2s, taken out of cfg", l, cfg.RunBudgetNS, cfg.RunTests)
	}
}

// TestShareRunBudget: a binary gets what is left of the run budget; once
// it is spent, still a budget (each test then takes wire.MinRunShare),
// never 0, which the runtime reads as no run budget at all.
func TestShareRunBudget(t *testing.T) {
	pkg := &rewrite.Package{ImportPath: "m/a", Tests: []string{"TestA"}}
	r := testRunOf(t, []string{"--run-budget", "10s"}, pkg)
	var cfg wire.Config
	r.shareRunBudget(&cfg, 4*time.Second, 3)
	if cfg.RunBudgetNS != int64(6*time.Second) || cfg.RunTests != 3 {
		t.Errorf("4s of 10s spent: run budget %d for %d tests, want 6s for 3", cfg.RunBudgetNS, cfg.RunTests)
	}
	r.shareRunBudget(&cfg, 11*time.Second, 2)
	if cfg.RunBudgetNS <= 0 || cfg.RunTests != 2 {
		t.Errorf("11s of 10s spent: run budget %d for %d tests, want a spent budget, not none", cfg.RunBudgetNS, cfg.RunTests)
	}
}
