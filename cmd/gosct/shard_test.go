package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gosct/gosct/rewrite"
)

func TestParseShard(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	for _, c := range []struct {
		spec string
		env  func(string) string
		i, n int
		err  string
	}{
		{"2/8", env(), 2, 8, ""},
		{"1/1", env(), 1, 1, ""},
		{"0/8", env(), 0, 0, "numbered from 1"},
		{"9/8", env(), 0, 0, "not between 1 and 8"},
		{"2", env(), 0, 0, "must be I/N"},
		{"x/8", env(), 0, 0, "must be a number"},
		{"2/0", env(), 0, 0, "positive"},
		{"env/4", env(envK8sIndex, "0"), 1, 4, ""},
		{"env/4", env(envK8sIndex, "3"), 4, 4, ""},
		{"env/4", env(envK8sIndex, "4"), 0, 0, "not between 1 and 4"},
		{"env", env(envK8sIndex, "1"), 0, 0, "env/N"},
		{"env", env(envGitLabIndex, "2", envGitLabTotal, "5"), 2, 5, ""},
		{"env/3", env(envGitLabIndex, "3", envGitLabTotal, "5"), 3, 3, ""},
		{"env", env(), 0, 0, "no shard index"},
		{"env", env(envGitLabIndex, "two"), 0, 0, "not a number"},
	} {
		i, n, err := parseShard(c.spec, c.env)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("--shard %s: %v, want an error with %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil || i != c.i || n != c.n {
			t.Errorf("--shard %s: %d/%d, %v; want %d/%d", c.spec, i, n, err, c.i, c.n)
		}
	}
}

func TestShardFlags(t *testing.T) {
	if _, err := parseTest([]string{"--shard", "2/4"}); err == nil || !strings.Contains(err.Error(), "--seed") {
		t.Errorf("--shard without --seed: %v", err)
	}
	if _, err := parseTest([]string{"--shard", "2/4", "--strategy", "dfs"}); err != nil {
		t.Errorf("dfs needs no seed: %v", err)
	}
	if _, err := parseTest([]string{"--shard-by", "files"}); err == nil {
		t.Error("--shard-by files accepted")
	}
	// Searches that are not divisible by schedules (dpor: its tree grows
	// from the races of executions another machine would run) divide the
	// tests, and refuse --shard-by schedules in the user's terms.
	for _, s := range []string{"dfsrb", "dpor"} {
		o := &testOptions{strategy: s, shards: 4, shardBy: "auto"}
		if by, _ := shardUnit(o, 1); by != "tests" {
			t.Errorf("%s divided by %s", s, by)
		}
		_, err := shardUnit(&testOptions{strategy: s, shards: 4, shardBy: "schedules"}, 1)
		if err == nil || !strings.Contains(err.Error(), "a "+s+" search cannot be divided") || !strings.Contains(err.Error(), "--shard-by tests") {
			t.Errorf("%s divided by schedules: %v", s, err)
		}
	}
	for tests, want := range map[int]string{3: "schedules", 4: "tests", 9: "tests"} {
		if by, _ := shardUnit(&testOptions{strategy: "dfs", shards: 4, shardBy: "auto"}, tests); by != want {
			t.Errorf("%d tests into 4: by %s, want %s", tests, by, want)
		}
	}
}

func TestTestsOfShard(t *testing.T) {
	pkgs := []*rewrite.Package{{ImportPath: "a", Tests: []string{"T1", "T2", "T3"}}, {ImportPath: "b", Tests: []string{"T4", "Skip"}}}
	sel := func(ts []string) []string { return withoutSkipped(ts, regexp.MustCompile("^Skip$")) }
	all := map[string][]string{}
	for i := 1; i <= 3; i++ {
		for p, ts := range testsOfShard(pkgs, sel, i, 3) {
			all[p] = append(all[p], ts...)
		}
	}
	if got := testsOfShard(pkgs, sel, 1, 3); !reflect.DeepEqual(got, map[string][]string{"a": {"T1"}, "b": {"T4"}}) {
		t.Errorf("shard 1 of 3: %v", got)
	}
	if len(all["a"]) != 3 || len(all["b"]) != 1 {
		t.Errorf("the shards together: %v", all)
	}
}

// writeShard writes a results directory as a run of shard i of n would.
func writeShard(t *testing.T, base string, i, n int, seed int64, finish bool, events ...any) {
	t.Helper()
	info := runInfo{Gosct: "v", Shard: i, Shards: n, By: "schedules", Strategy: "random", Seed: seed, Schedules: 10,
		Packages: []string{"./..."}, TraceDir: filepath.Join(base, "elsewhere"), Started: time.Now()}
	w, err := newResultsWriter(base, info, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		w.record(e)
	}
	if finish {
		w.record(jsonSummary{Event: "summary", Strategy: "random", Seed: seed, ElapsedS: 1, ExploreS: 0.5})
	}
	w.close()
}

func TestMergeChecksTheShards(t *testing.T) {
	merge := func(dirs ...string) e2eResult {
		var o, e bytes.Buffer
		code := run(t.Context(), append([]string{"merge"}, dirs...), &o, &e)
		return e2eResult{code: code, stdout: o.String(), stderr: e.String()}
	}
	test := func(schedules int, exhausted bool) jsonTest {
		return jsonTest{Event: "test", Package: "p", Test: "TestX", Schedules: schedules, Exhausted: exhausted, Status: "s"}
	}
	pkg := jsonPackage{Event: "package", Package: "p", Tests: []string{"TestX"}, Status: "ok"}

	dir := t.TempDir()
	writeShard(t, dir, 1, 2, 5, true, test(4, false), pkg)
	writeShard(t, dir, 2, 2, 5, true, test(6, false), pkg)
	if r := merge(dir); r.code != exitOK || !strings.Contains(r.stdout, "gosct: 10 schedules of 1 test") || !strings.Contains(r.stdout, "2 shards merged") {
		t.Fatalf("two shards:\n%s", r)
	}

	// A trace written inside the shard's directory is found where the
	// directory is now.
	dir = t.TempDir()
	tr := filepath.Join(dir, "elsewhere", "p", "TestX-deadlock-3.json")
	bug := jsonBug{Event: "bug", Package: "p", Test: "TestX", Kind: "deadlock", Schedule: 3, Trace: tr, Key: "k", Message: "m"}
	writeShard(t, dir, 1, 1, 5, true, bug, test(10, false), pkg)
	moved := filepath.Join(dir, shardName(1, 1), "traces", "p", "TestX-deadlock-3.json")
	os.MkdirAll(filepath.Dir(moved), 0o755)
	os.WriteFile(moved, []byte("{}"), 0o644)
	if r := merge(dir); r.code != exitBug || !strings.Contains(r.stdout, "replay: gosct replay "+moved) {
		t.Fatalf("a bug whose trace moved:\n%s", r)
	}

	dir = t.TempDir()
	writeShard(t, dir, 1, 3, 5, true, test(4, false))
	writeShard(t, dir, 2, 3, 5, false, test(4, false))
	r := merge(dir)
	if r.code != exitError || !strings.Contains(r.stderr, "shard 3 of 3 missing") || !strings.Contains(r.stderr, "shard 2 of 3") || !strings.Contains(r.stderr, "did not finish") {
		t.Fatalf("a missing and an unfinished shard:\n%s", r)
	}

	dir = t.TempDir()
	other := t.TempDir()
	writeShard(t, dir, 1, 2, 5, true)
	writeShard(t, other, 2, 2, 6, true)
	if r := merge(dir, other); r.code != exitError || !strings.Contains(r.stderr, "not a shard of the same search") {
		t.Fatalf("shards of two seeds:\n%s", r)
	}
	if r := merge(t.TempDir()); r.code != exitError || !strings.Contains(r.stderr, "no results") {
		t.Fatalf("an empty directory:\n%s", r)
	}
}

func TestWatchLines(t *testing.T) {
	now := time.Now()
	shards := map[string]*watched{
		"a": {dir: "a", prog: shardProgress{Shard: 1, Shards: 3, Started: now.Add(-10 * time.Second), Updated: now, Tests: 2, TestsDone: 1, Schedules: 500, Bugs: 1, Package: "p", Test: "TestX"}},
		"b": {dir: "b", prog: shardProgress{Shard: 2, Shards: 3, Started: now.Add(-10 * time.Second), Updated: now, Done: true, Tests: 2, TestsDone: 2, Schedules: 700}},
	}
	total, finished, over := watchTotals(shards)
	if total != 3 || finished != 1 || over {
		t.Fatalf("totals %d %d %v", total, finished, over)
	}
	lines := watchLines(shards, total, now)
	for i, want := range []string{"shard 1/3  running  1/2 tests  500 schedules  50/s  1 bug  p TestX", "shard 2/3  done", "all: 1 of 3 shards done, 1200 schedules, 1 bug, 50 schedules/s, 1 not started"} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d %q lacks %q", i, lines[i], want)
		}
	}
}
