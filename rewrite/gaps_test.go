package rewrite

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// TestGapsUnderRealRuntime builds testdata/gaps against the real runtime
// and explores each test: the constructs the rewriter once missed (method
// expressions, cleanups through testing.TB, sync.Pool, comma-ok map reads
// in an if init, range and delete on a map) must give a bug exactly where
// there is one.
func TestGapsUnderRealRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	old := runtimeSource
	runtimeSource = embeddedSource
	defer func() { runtimeSource = old }()
	b := instrument(t, "testdata/gaps", ".")
	bin := filepath.Join(t.TempDir(), "gaps.test")
	if out, err := goCmd(t, b.ModDir, append(append([]string{"test", "-c", "-o", bin, "-overlay=" + b.Overlay}, b.Flags...), ".")...); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	want := map[string]string{ // test -> kind of bug ("" for none)
		"TestMethodExprDeadlock": "deadlock",
		"TestTBCleanupNoLeak":    "",
		"TestPoolNoRace":         "",
		"TestCommaOKRace":        "race",
		"TestRangeDeleteRace":    "race",
		"TestContextStopsWorker": "",
	}
	for name, kind := range want {
		dir := t.TempDir()
		c := wire.Config{Mode: "explore", Strategy: "random", Schedules: 200, Seed: 1, Races: "report",
			TraceDir: filepath.Join(dir, "traces"), Results: filepath.Join(dir, "results.jsonl")}
		cfg, _ := json.Marshal(c)
		cmd := exec.Command(bin, "-test.run=^"+name+"$", "-test.count=1", "-test.timeout=60s")
		cmd.Env = append(os.Environ(), wire.EnvConfig+"="+string(cfg))
		out, _ := cmd.CombinedOutput()
		var kinds []string
		tested := false
		f, err := os.Open(c.Results)
		if err != nil {
			t.Errorf("%s: no results: %v\n%s", name, err, out)
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var e wire.Event
			if json.Unmarshal(sc.Bytes(), &e) != nil {
				continue
			}
			switch e.Event {
			case "bug":
				kinds = append(kinds, e.Kind)
			case "test":
				tested = true
			}
		}
		f.Close()
		switch {
		case !tested:
			t.Errorf("%s: the test did not complete:\n%s", name, out)
		case kind == "" && len(kinds) > 0:
			t.Errorf("%s: bugs %v, want none", name, kinds)
		case kind != "" && (len(kinds) == 0 || kinds[0] != kind):
			t.Errorf("%s: bugs %v, want a %s", name, kinds, kind)
		}
	}
}
