package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The determinism tests of issue 15: every bug of the nondeterminism
// fixtures (testprogs/nondet) and of a sample of the corpus replays 10
// times out of 10, each in a fresh process; the determinism check names
// each fixture's source when its control is turned off, and finds nothing
// over the corpus with every control on; a trace moved to another
// directory replays in a fresh copy of its module.

func testprogsRoot(t *testing.T) string {
	root, _ := filepath.Abs(filepath.Join("..", "..", "testprogs"))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Skip("no testprogs corpus")
	}
	return root
}

// fixture is one program of testprogs/nondet.
type fixture struct {
	dir, kind, source string
}

func nondetFixtures(t *testing.T, root string) []fixture {
	dirs, _ := filepath.Glob(filepath.Join(root, "nondet", "*", "program.json"))
	var out []fixture
	for _, p := range dirs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var pj struct{ Dir, Kind, Source string }
		if err := json.Unmarshal(b, &pj); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, fixture{pj.Dir, pj.Kind, pj.Source})
	}
	if len(out) < 10 {
		t.Fatalf("%d nondeterminism fixtures, want at least 10", len(out))
	}
	return out
}

// replay10 replays trace 10 times, from another working directory, and
// requires the bug every time.
func replay10(t *testing.T, trace string) {
	t.Helper()
	r := runGosct(t, t.TempDir(), "replay", "--repeat", "10", trace)
	if r.code != exitBug || !strings.Contains(r.stderr, "happened again in 10 of 10 replays") {
		t.Fatalf("replay --repeat 10 %s:\n%s", trace, r)
	}
}

// corpusSample are corpus bugs found within a few hundred schedules, of
// every kind, replayed 10 times each beside the fixtures.
var corpusSample = []string{
	"./sctbench/cs_account_bad", "./sctbench/cs_stack_bad", "./sctbench/cs_deadlock01_bad", "./sctbench/cs_lazy01_bad",
	"./gobugs/abba", "./gobugs/doubleclose", "./gobugs/condmissed", "./gobugs/earlyreturn",
	"./gobugs/doublelock", "./gobugs/wgnegative", "./gobugs/sendonclosed", "./gobugs/timeoutleak",
}

// checkEvents fails t for every nondeterministic schedule and error in r,
// but logs those whose likely source is a goroutine the watchdog detached:
// on a loaded machine a goroutine can wait that long for a CPU, a real
// source of nondeterminism that the check names, but the machine's, not a
// control of gosct's. It returns the bug events by package.
func checkEvents(t *testing.T, r e2eResult) (bugs map[string]map[string]any, tests int) {
	t.Helper()
	bugs = map[string]map[string]any{}
	for _, l := range jsonLines(t, r.stdout) {
		switch l["event"] {
		case "nondeterministic":
			if l["source"] == "uncontrolled code" {
				t.Logf("%s %s: %s", l["package"], l["test"], l["message"])
				continue
			}
			t.Errorf("%s %s: %s", l["package"], l["test"], l["message"])
		case "error":
			t.Errorf("error: %s %s: %s", l["package"], l["test"], l["message"])
		case "test":
			tests++
		case "bug":
			bugs[l["package"].(string)] = l
		}
	}
	return bugs, tests
}

// TestE2ENondetFixturesAndSample explores the fixtures and a sample of
// the corpus under --check-determinism (every schedule twice: none may
// differ), finds each fixture's bug, of the kind its program.json gives,
// and each sample program's, and replays every one 10 times out of 10.
func TestE2ENondetFixturesAndSample(t *testing.T) {
	root := testprogsRoot(t)
	fixtures := nondetFixtures(t, root)
	// --races off: the fixtures' program.json give the bug each is
	// about; some (a lost update) are also data races, which the
	// default would report first.
	args := []string{"test", "--json", "--seed", "1", "--schedules", "2000", "--budget", "30s", "--races", "off",
		"--check-determinism", "--trace-dir", t.TempDir(), "./nondet/..."}
	r := runGosct(t, root, append(append(args, corpusSample...), "--", "-timeout", "10m")...)
	found, _ := checkEvents(t, r)
	var traces []string
	for _, f := range fixtures {
		b := found["github.com/gosct/gosct/testprogs/"+f.dir]
		if b == nil || b["kind"] != f.kind {
			t.Errorf("want a %s in %s, got %v", f.kind, f.dir, b)
			continue
		}
		traces = append(traces, b["trace"].(string))
	}
	for _, p := range corpusSample {
		b := found["github.com/gosct/gosct/testprogs/"+strings.TrimPrefix(p, "./")]
		if b == nil {
			t.Errorf("no bug found in %s", p)
			continue
		}
		traces = append(traces, b["trace"].(string))
	}
	if t.Failed() {
		t.Fatalf("gosct test:\n%s", r)
	}
	for _, tr := range traces {
		tr := tr
		t.Run(strings.TrimSuffix(filepath.Base(tr), ".json"), func(t *testing.T) { replay10(t, tr) })
	}
}

// TestE2ECheckDeterminismNamesSources turns off every control: the
// determinism check must then report each fixture's test as
// nondeterministic and name the kind of source its program.json gives.
func TestE2ECheckDeterminismNamesSources(t *testing.T) {
	root := testprogsRoot(t)
	// The kind a finding names, per control.
	kind := map[string]string{"rand": "rand", "maps": "map order", "time": "time", "goroutines": "goroutines", "crypto": "crypto/rand"}
	r := runGosct(t, root, "test", "--json", "--seed", "1", "--schedules", "50", "--keep-going",
		"--check-determinism", "--control-off", "rand,maps,time,goroutines,crypto", "--trace-dir", t.TempDir(), "./nondet/...")
	named := map[string]string{}
	for _, l := range jsonLines(t, r.stdout) {
		if p, _ := l["package"].(string); l["event"] == "nondeterministic" && named[p] == "" {
			named[p], _ = l["source"].(string)
		}
	}
	for _, f := range nondetFixtures(t, root) {
		if got := named["github.com/gosct/gosct/testprogs/"+f.dir]; got != kind[f.source] {
			t.Errorf("%s: with the controls off, the first nondeterministic schedule names %q, want %q", f.dir, got, kind[f.source])
		}
	}
	if t.Failed() {
		t.Logf("gosct test:\n%s", r)
	}
}

// TestE2ECheckDeterminismCorpus runs the whole corpus under
// --check-determinism, every schedule twice: none may differ. It builds
// about 185 test binaries, minutes of CI (docs/performance.md): it runs
// with GOSCT_TESTPROGS=1, as the corpus pass-through test of package
// rewrite does; the fixtures and the sample are checked by default above.
func TestE2ECheckDeterminismCorpus(t *testing.T) {
	root := testprogsRoot(t)
	if os.Getenv("GOSCT_TESTPROGS") == "" {
		t.Skip("set GOSCT_TESTPROGS=1 to check the whole corpus")
	}
	r := runGosct(t, root, "test", "--json", "--seed", "1", "--schedules", "4", "--keep-going",
		"--check-determinism", "--trace-dir", t.TempDir(), "./...", "--", "-timeout", "10m")
	if _, tests := checkEvents(t, r); tests < 150 {
		t.Errorf("only %d tests checked:\n%s", tests, r.stderr)
	}
}

// TestE2EPortableTrace records a bug in one copy of a module, deletes that
// copy, moves the trace to another directory, and replays it in a fresh
// copy: from the fresh copy's root, and with the trace kept inside the
// copy's testdata from an unrelated working directory.
func TestE2EPortableTrace(t *testing.T) {
	first := t.TempDir()
	copyDir(t, fixtureDir(t), first)
	r := runGosct(t, first, "test", "--json", "--seed", "1", "--schedules", "500", "--trace-dir", t.TempDir(), "./buggy")
	bugs := bugEvents(t, r)
	if r.code != exitBug || len(bugs) == 0 {
		t.Fatalf("want the deadlock:\n%s", r)
	}
	data, err := os.ReadFile(bugs[0]["trace"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(first); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(t.TempDir(), "elsewhere", "deadlock.json")
	os.MkdirAll(filepath.Dir(moved), 0o755)
	if err := os.WriteFile(moved, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := t.TempDir()
	copyDir(t, fixtureDir(t), fresh)
	if r := runGosct(t, fresh, "replay", moved); r.code != exitBug {
		t.Fatalf("replay of the moved trace from the fresh copy:\n%s", r)
	}
	kept := filepath.Join(fresh, "buggy", "testdata", "gosct", "deadlock.json")
	os.MkdirAll(filepath.Dir(kept), 0o755)
	if err := os.WriteFile(kept, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runGosct(t, t.TempDir(), "replay", kept); r.code != exitBug {
		t.Fatalf("replay of the trace kept in the fresh copy, from elsewhere:\n%s", r)
	}
	// A changed file is named when the replay diverges.
	src := filepath.Join(fresh, "buggy", "buggy.go")
	code, _ := os.ReadFile(src)
	code = []byte(strings.Replace(string(code), "\ta.mu.Lock()\n\tdefer a.mu.Unlock()",
		"\ta.mu.Lock()\n\ta.mu.Unlock()\n\ta.mu.Lock()\n\tdefer a.mu.Unlock()", 1))
	os.WriteFile(src, code, 0o644)
	r = runGosct(t, fresh, "replay", kept)
	if r.code != exitError || !strings.Contains(r.stderr, "likely source: buggy/buggy.go changed since the trace was written") {
		t.Fatalf("want the divergence to name the changed file:\n%s", r)
	}
}
