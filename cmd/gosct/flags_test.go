package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseTestDefaults(t *testing.T) {
	o, err := parseTest(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.strategy != "portfolio" || o.schedules != 1000 || o.budget != defaultBudget || o.runBudget != defaultRunBudget ||
		o.depth != 3 || o.races != "report" || o.seedSet || o.json || o.keepGoing || !o.deps || o.depsSet || !o.saturate {
		t.Errorf("defaults: %+v", o)
	}
	if !reflect.DeepEqual(o.packages, []string{"."}) {
		t.Errorf("packages %v, want [.]", o.packages)
	}
}

func TestParseTestFlags(t *testing.T) {
	o, err := parseTest([]string{"--strategy", "pct", "--schedules=50", "--budget", "3s", "--seed", "9",
		"--bound", "2", "--depth", "2", "--run", "TestQ/sub", "--trace-dir", "tr", "--json", "--keep-going",
		"--deps", "--max-steps", "500", "--races", "report", "./a", "./b/...",
		"--", "-race", "-tags", "x y", "-v", "-timeout=30s", "-short", "-run", "Ignored", "-myflag=1"})
	if err != nil {
		t.Fatal(err)
	}
	want := testOptions{strategy: "pct", strategySet: true, schedules: 50, budget: 3 * time.Second, runBudget: defaultRunBudget, seed: 9, seedSet: true,
		bound: 2, depth: 2, run: "TestQ/sub", traceDir: "tr", json: true, jsonMode: "gosct", keepGoing: true, deps: true, depsSet: true,
		maxSteps: 500, races: "report", verbose: true, shardBy: "auto", minimize: defaultMinimize, timing: "loaded", packages: []string{"./a", "./b/..."}}
	got := *o
	got.gotest = goTestFlags{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	g := o.gotest
	if !reflect.DeepEqual(g.build, []string{"-race"}) || g.tags != "x y" || g.timeout != "30s" || g.runRe != "Ignored" || !g.verbose {
		t.Errorf("go test flags %+v", g)
	}
	if !reflect.DeepEqual(g.run, []string{"-test.v", "-test.short", "-myflag=1"}) {
		t.Errorf("binary flags %q", g.run)
	}
}

// TestParseOutputFlags: --json keeps gosct's stream, --json=go selects go
// test's; --annotations takes a format and an optional file.
func TestParseOutputFlags(t *testing.T) {
	o, err := parseTest([]string{"--json=go", "--annotations", "github", "--annotations=gitlab=cq.json", "--coverage", "cov.txt", "./p"})
	if err != nil {
		t.Fatal(err)
	}
	want := []annotationSpec{{format: "github"}, {format: "gitlab", file: "cq.json"}}
	if !o.goJSON || o.json || !reflect.DeepEqual(o.annotations, want) || o.coverage != "cov.txt" || !reflect.DeepEqual(o.packages, []string{"./p"}) {
		t.Errorf("options %+v", o)
	}
	o, err = parseTest([]string{"--json", "./p"})
	if err != nil || !o.json || o.goJSON {
		t.Errorf("--json alone: %+v, %v", o, err)
	}
	for args, msg := range map[string]string{
		"--json go ./p":         "write --json=go (with =)",
		"--json=xml ./p":        `--json must be gosct (the default) or go, not "xml"`,
		"--annotations jira":    `--annotations: unknown format "jira"`,
		"--annotations github=": "no file after =",
	} {
		_, err := parseTest(strings.Fields(args))
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want a usage error containing %q", args, err, msg)
		}
	}
}

// TestParseTiming: --timing strict fires no timer early.
func TestParseTiming(t *testing.T) {
	for _, args := range [][]string{{"--timing", "strict"}, {"--timing=strict", "--timer-early", "0"}} {
		o, err := parseTest(args)
		if err != nil || o.timerEarly != "0" {
			t.Errorf("parseTest(%q): timer-early %q, %v; want 0", args, o.timerEarly, err)
		}
	}
	if o, err := parseTest(nil); err != nil || o.timing != "loaded" || o.timerEarly != "" {
		t.Errorf("default: timing %q, timer-early %q, %v", o.timing, o.timerEarly, err)
	}
}

func TestParseTestDFSRB(t *testing.T) {
	for _, spec := range []string{"rb3", "portfolio", "L*0.25,cs,ncs,R,1-d/100,1.2,order=random"} {
		o, err := parseTest([]string{"--strategy", "dfsrb", "--dfsrb", spec, "./p"})
		if err != nil || o.dfsrb != spec {
			t.Errorf("--dfsrb %s: %v, %q", spec, err, o.dfsrb)
		}
	}
}

func TestParseTestWalks(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--strategy", "guided"}, 0},
		{[]string{"--strategy", "guided", "--walks", "0"}, -1},
		{[]string{"--walks", "3"}, 3},
	} {
		o, err := parseTest(c.args)
		if err != nil || o.walks != c.want {
			t.Errorf("%q: walks %d, %v; want %d", c.args, o.walks, err, c.want)
		}
	}
}

func TestParseTestRunFromGoTestFlags(t *testing.T) {
	o, err := parseTest([]string{"./p", "--", "-run=TestX"})
	if err != nil {
		t.Fatal(err)
	}
	if o.run != "TestX" {
		t.Errorf("run %q, want the -run after --", o.run)
	}
}

func TestParseTestErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--strategy", "nope"}, `unknown strategy "nope" (known: db, dfs, dfsrb, `},
		{[]string{"--schedules", "-1"}, "--schedules must be at least 1"},
		{[]string{"--schedules", "0"}, "--schedules must be at least 1"},
		{[]string{"--budget", "-1s"}, "--budget must not be negative"},
		{[]string{"--run-budget", "-1s"}, "--run-budget must not be negative"},
		{[]string{"--bound", "-2"}, "--bound must not be negative"},
		{[]string{"--bound", "-1"}, "--bound must not be negative"},
		{[]string{"--depth", "0"}, "--depth must be at least 1"},
		{[]string{"--max-steps", "-5"}, "--max-steps must not be negative"},
		{[]string{"--races", "on"}, "--races must be off, report or sync"},
		{[]string{"--run", "(("}, "bad --run regexp"},
		{[]string{"--frobnicate"}, "unknown flag: --frobnicate"},
		{[]string{"-race"}, "flags for go test go after --"},
		{[]string{"--schedules", "many"}, `invalid argument "many"`},
		{[]string{"--", "-json"}, "use gosct's --json"},
		{[]string{"--", "-c"}, "gosct builds the test binary itself"},
		{[]string{"--", "-tags"}, "-tags needs a value"},
		{[]string{"--strategy", "random", "--target", "x.go:3"}, "--target steers guided search: use --strategy guided"},
		{[]string{"--strategy", "guided", "--target", "x.go"}, `--target "x.go": want file:line`},
		{[]string{"--strategy", "guided", "--target", "x.go:"}, `--target "x.go:": want file:line`},
		{[]string{"--timing", "lax"}, `--timing must be loaded or strict, not "lax"`},
		{[]string{"--timing", "strict", "--timer-early", "2ms"}, "--timing strict fires no timer early: it cannot go with --timer-early 2ms"},
		{[]string{"--walks", "-1"}, "--walks must not be negative"},
		{[]string{"--strategy", "random", "--walks", "0"}, "--walks is an option of guided search"},
		{[]string{"--dfsrb", "rb2"}, "--dfsrb configures --strategy dfsrb, not portfolio"},
		{[]string{"--strategy", "dfsrb", "--dfsrb", "rb12"}, `--dfsrb "rb12": unknown configuration "rb12"`},
		{[]string{"--strategy", "dfsrb", "--dfsrb", "I,pl,d,luby,0.75"}, "the paper's tuple has 6 elements"},
		{[]string{"--strategy", "dfsrb", "--dfsrb", "I,pl,d,luby,1-x/3,1.5"}, `ratio "1-x/3"`},
	}
	for _, c := range cases {
		_, err := parseTest(c.args)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parseTest(%q) = %v, want a usage error containing %q", c.args, err, c.want)
		}
	}
	if _, err := parseTest([]string{"--help"}); !errors.Is(err, errHelp) {
		t.Errorf("--help: %v", err)
	}
}

func TestParseGoTestFlags(t *testing.T) {
	g, err := parseGoTestFlags([]string{"-gcflags=all=-N -l", "-cover", "-count", "3", "--bench", ".", "-test.cpu=1,2", "pos"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.build, []string{"-gcflags=all=-N -l", "-cover"}) {
		t.Errorf("build %q", g.build)
	}
	if !reflect.DeepEqual(g.run, []string{"-test.bench=.", "-test.cpu=1,2", "pos"}) {
		t.Errorf("run %q", g.run)
	}
	if len(g.warnings) != 1 || !strings.Contains(g.warnings[0], "-count") {
		t.Errorf("warnings %q", g.warnings)
	}
	g, err = parseGoTestFlags([]string{"-v=false"})
	if err != nil || g.verbose {
		t.Errorf("-v=false: %+v, %v", g, err)
	}
}

func TestSplitRun(t *testing.T) {
	cases := map[string][]string{
		"TestA":          {"TestA"},
		"TestA/sub":      {"TestA", "sub"},
		"Test[/]x/y":     {"Test[/]x", "y"},
		"Test(a/b)/c":    {"Test(a/b)", "c"},
		`Test\/x/y`:      {`Test\/x`, "y"},
		"TestA/sub/case": {"TestA", "sub", "case"},
	}
	for in, want := range cases {
		if got := splitRun(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitRun(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExactRun(t *testing.T) {
	if got := exactRun("TestQ/with_(parens)+x"); got != `^TestQ$/^with_\(parens\)\+x$` {
		t.Errorf("exactRun = %q", got)
	}
}

func TestFilterTests(t *testing.T) {
	re, err := topLevelRun("A|C/sub")
	if err != nil {
		t.Fatal(err)
	}
	got := filterTests([]string{"TestA", "TestB", "TestC"}, re)
	if !reflect.DeepEqual(got, []string{"TestA", "TestC"}) {
		t.Errorf("filterTests = %v", got)
	}
}

func TestTestTimeout(t *testing.T) {
	if got := testTimeout("5s", time.Minute, 3); got != "5s" {
		t.Errorf("user timeout replaced: %s", got)
	}
	if got := testTimeout("", time.Second, 2); got != "10m0s" {
		t.Errorf("small budgets: %s, want go test's 10m0s", got)
	}
	if got := testTimeout("", time.Minute, 20); got != "24m20s" {
		t.Errorf("large budgets: %s", got)
	}
	if got := testTimeout("", 0, 20); got != "" {
		t.Errorf("no budget: %s, want none", got)
	}
}

func TestExitStatus(t *testing.T) {
	for _, c := range []struct{ bugs, errs, want int }{{0, 0, 0}, {1, 0, 1}, {0, 1, 2}, {2, 3, 1}} {
		if got := exitStatus(c.bugs, c.errs); got != c.want {
			t.Errorf("exitStatus(%d, %d) = %d, want %d", c.bugs, c.errs, got, c.want)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/a-b_c.json": "/tmp/a-b_c.json",
		"/tmp/a b.json":   "'/tmp/a b.json'",
		"it's":            `'it'\''s'`,
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestExplorePattern(t *testing.T) {
	for in, want := range map[string]string{"": ".", "TestA|TestB": "TestA|TestB", "TestA/sub": "TestA//sub", "T[/]x/a/b": "T[/]x//a/b"} {
		if got := explorePattern(in); got != want {
			t.Errorf("explorePattern(%q) = %q, want %q", in, got, want)
		}
	}
	if got := packageTraceDir("/tr", "example.com/a/b"); got != "/tr/example.com_a_b" {
		t.Errorf("packageTraceDir = %s", got)
	}
}

// TestStrategyMessages pins the whole text of the messages that name
// strategies, which the command words from strategies.Info.
func TestStrategyMessages(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--strategy", "random", "--walks", "3"}, "--walks is an option of guided search: use --strategy guided (or the portfolio, of which it is a member)"},
		{[]string{"--strategy", "dfs", "--target", "x.go:3"}, "--target steers guided search: use --strategy guided (or the portfolio, of which it is a member)"},
		{[]string{"--strategy", "pct", "--dfsrb", "rb2"}, "--dfsrb configures --strategy dfsrb, not pct"},
		{[]string{"--strategy", "portfolio", "--states"}, "--states is an option of --strategy dpor, not portfolio"},
		{[]string{"--strategy", "pairwise"}, "--strategy pairwise checks a change: give it with --since REV"},
		{[]string{"--strategy", "random", "--shard", "1/2"}, "--shard needs --seed: every shard of a search must use the same seed (a value of the run, e.g. --seed $GITHUB_RUN_ID)"},
		{[]string{"--strategy", "dpor", "--shard", "1/2"}, "--shard needs --seed: every shard of a search must use the same seed (a value of the run, e.g. --seed $GITHUB_RUN_ID)"},
	} {
		if _, err := parseTest(c.args); err == nil || err.Error() != c.want {
			t.Errorf("parseTest(%q) = %v, want %q", c.args, err, c.want)
		}
	}
	for _, args := range [][]string{{"--strategy", "dfs", "--shard", "1/2"}, {"--strategy", "guided", "--walks", "3", "--target", "x.go:3"}, {"--strategy", "portfolio", "--walks", "3"}, {"--strategy", "dpor", "--states"}} {
		if _, err := parseTest(args); err != nil {
			t.Errorf("parseTest(%q): %v", args, err)
		}
	}
	if o, err := parseTest([]string{"--since", "HEAD~1"}); err != nil || o.strategy != "pairwise" {
		t.Errorf("--since without --strategy: %+v, %v; want pairwise", o, err)
	}
	for strategy, want := range map[string]string{
		"guided":    "guided search has no guide, it runs as a random walk",
		"portfolio": "the portfolio runs without guided search",
	} {
		if got := noGuide(strategy); got != want {
			t.Errorf("noGuide(%s) = %q, want %q", strategy, got, want)
		}
	}
}
