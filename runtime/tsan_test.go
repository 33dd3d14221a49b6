package runtime

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gosct/gosct/internal/wire"
)

// Under -race (go test -race ./runtime, as CI runs it), Go's race detector
// must see the races of the programs the runtime serializes: the runtime's
// own hand-offs must not order their accesses (tsan_on.go). The race-free
// twins run in process under the detector (TestRaceFreePrograms): a false
// race there fails the test binary.

// goRaceAccess matches an access of a race report: the function and file
// of its first frame, and the file of the next.
var goRaceAccess = regexp.MustCompile(`(?m)^(?:Write|Read|Previous write|Previous read) at 0x[0-9a-f]+ by\s+goroutine \d+:\n\s+(\S+)\(\)\n\s+(\S+):\d+ \+0x[0-9a-f]+\n\s+\S+\(\)\n\s+(\S+):\d+`)

func TestGoRaceSeesRacyPrograms(t *testing.T) {
	if !raceEnabled {
		t.Skip("needs a test binary built with -race")
	}
	for _, name := range racePairNames() {
		t.Run(name, func(t *testing.T) {
			out := goRaceVictim(t, name)
			if !strings.Contains(out, "WARNING: DATA RACE") {
				t.Fatalf("no race report:\n%s", out)
			}
			ms := goRaceAccess.FindAllStringSubmatch(out, -1)
			if len(ms) < 2 {
				t.Fatalf("no access stacks in:\n%s", out)
			}
			// Every racing access is the program's: made by its own code,
			// by the Load or Store it calls, or by Go's map functions.
			for _, m := range ms {
				fn, file, caller := m[1], m[2], m[3]
				hook := strings.HasPrefix(fn, selfPkg+"Load[") || strings.HasPrefix(fn, selfPkg+"Store[") || strings.HasPrefix(fn, "runtime.map")
				// The program's copy(dst, src) is made by the Copy hook
				// itself (memory.go's only copies are Copy's and
				// CopyString's).
				hookCopy := fn == "runtime.slicecopy" && strings.HasSuffix(caller, "runtime/memory.go")
				if !strings.HasSuffix(file, "detector_test.go") && !(hook && strings.HasSuffix(caller, "detector_test.go")) && !hookCopy {
					t.Errorf("racing access in %s (%s) called from %s: not the program's", fn, file, caller)
				}
			}
		})
	}
}

// goRaceVictim runs the racy program name in a child process of this
// (race-built) test binary and returns its output.
func goRaceVictim(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	// gosct's own detector stops the exploration at the first schedule
	// that runs the two accesses unordered: Go's must have seen the race
	// by then.
	c := wire.Config{Mode: "explore", Strategy: "dfs", Schedules: 1000, Seed: 1, Races: "report",
		Results: filepath.Join(dir, "results.jsonl"), TraceDir: filepath.Join(dir, "traces")}
	cfg, _ := json.Marshal(c)
	cmd := exec.Command(os.Args[0], "-test.run=^TestVictimRace$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), victimEnv+"=1", raceProgEnv+"="+name, wire.EnvConfig+"="+string(cfg))
	out, _ := cmd.CombinedOutput()
	return string(out)
}
